// The start-up budget in the built dist/. The state commands with a `load` in their registry
// (cli/commands-state.ts) run from one CommonJS file, dist/state.cjs
// (cli/state-main.ts), which the launcher loads with a code cache of its own: it
// holds no zod or zod schema (zod loads only when a file fails its generated validator), no MCP SDK
// and no marked, and evaluates js-yaml only on a YAML read (never in `state log`). What a real
// course's `state next` loads at run time holds no zod and no heavy Node module. esbuild names each
// bundled source in a `// path` comment.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { STATE_COMMANDS } from '../cli/commands-state.ts';
import { LOADERS } from '../cli/loaders.ts';
import { CLI, scratchCourse, scratchDir } from '../cli/testing.ts';
import { buildStateCourse } from './state-course.ts';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const STATE_BUNDLE = path.join(DIST, 'state.cjs');
/** The commands dist/state.cjs runs, and those of the registry it does not. */
const IN_STATE_BUNDLE = STATE_COMMANDS.filter((spec) => spec.load !== undefined);
const NOT_IN_STATE_BUNDLE = STATE_COMMANDS.filter((spec) => spec.load === undefined);

/** The source file of a command's module, from its loader's text (`() => import('./commands/x.ts')`). */
function moduleOf(load: () => unknown): string {
  const found = /import\(['"]\.\/(commands\/[a-z-]+\.ts)['"]\)/.exec(String(load));
  assert.ok(found, `a loader imports no command module: ${String(load)}`);
  return `cli/${found[1]}`;
}

/** The module of each command of the registry that has none in dist/state.cjs (cli/loaders.ts loads it). */
function mainModuleOf(name: string): string {
  return `cli/commands/${name.replace(/ /g, '-')}.ts`;
}

/** The chunk file `name` and every chunk it imports statically, transitively. */
function staticClosure(file: string): Map<string, string> {
  const seen = new Map<string, string>();
  const todo = [file];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (seen.has(next)) continue;
    const text = readFileSync(next, 'utf8');
    seen.set(next, text);
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.\/[^"]+)"/gms))
      todo.push(path.join(path.dirname(next), match[1]!));
  }
  return seen;
}

/** Sources bundled into `text`, from esbuild's `// path/to/source.ts` comments. */
function sources(text: string): string[] {
  return [...text.matchAll(/^\/\/ ((?:node_modules|content-schemas|pipeline|cli)\/\S+)$/gm)].map((match) => match[1]!);
}

const ZOD_FREE_SCHEMA_FILES = new Set([
  'content-schemas/errors.ts',
  'content-schemas/fast.ts',
  'content-schemas/regular-file.ts',
  'content-schemas/safe-parser.ts',
  'content-schemas/lazy-load.ts',
  'content-schemas/names.ts',
  'content-schemas/parse.ts',
  'content-schemas/validators.generated.ts',
  'content-schemas/validator-helpers.ts',
  'content-schemas/contrast.ts',
  'content-schemas/refinements.ts',
  'content-schemas/yaml.ts',
  'content-schemas/yaml-subset.ts',
  // The registries (docs/architecture.md, "Registries"): plain data, read by the stage checks and init.
  'content-schemas/registries.ts',
  'content-schemas/doc-kinds.ts',
  'content-schemas/runtimes.ts',
  'content-schemas/prose-list.ts',
]);

test('dist/state.cjs holds every state command and the generated validators, and of node_modules only js-yaml: no zod, MCP SDK or marked', () => {
  const bundled = sources(readFileSync(STATE_BUNDLE, 'utf8'));
  assert.ok(IN_STATE_BUNDLE.length > 0 && NOT_IN_STATE_BUNDLE.length > 0, 'the registry is read');
  for (const spec of IN_STATE_BUNDLE)
    assert.ok(bundled.includes(moduleOf(spec.load!)), `${spec.name} is not in dist/state.cjs`);
  for (const spec of NOT_IN_STATE_BUNDLE)
    assert.ok(
      !bundled.includes(mainModuleOf(spec.name)),
      `${spec.name} (no load in its registry entry) is in dist/state.cjs`,
    );
  assert.ok(bundled.includes('content-schemas/validators.generated.ts'), 'the generated validators are on the path');
  assert.deepEqual(
    bundled.filter((source) => source.startsWith('content-schemas/') && !ZOD_FREE_SCHEMA_FILES.has(source)),
    [],
    'dist/state.cjs pulls in the zod schemas',
  );
  assert.deepEqual(
    [...new Set(bundled.filter((source) => source.startsWith('node_modules/')).map((source) => source.split('/')[1]))],
    ['js-yaml'],
    'dist/state.cjs bundles a package besides js-yaml',
  );
});

/** bin/codelabgen.cjs and dist/state.cjs alone in a folder of their own; `edit` may change the bundle. */
function stateBundleAlone(edit: (text: string) => string = (text) => text): string {
  const root = scratchDir('codelabgen-state-alone-');
  mkdirSync(path.join(root, 'bin'));
  mkdirSync(path.join(root, 'dist'));
  copyFileSync(CLI, path.join(root, 'bin', 'codelabgen.cjs'));
  writeFileSync(path.join(root, 'dist', 'state.cjs'), edit(readFileSync(STATE_BUNDLE, 'utf8')));
  return path.join(root, 'bin', 'codelabgen.cjs');
}

const SCRATCH_CODE_CACHE = scratchDir('codelabgen-code-cache-');

/** Runs the launcher `cli` (its code caches in a scratch folder: each install path has its own). */
function runWith(cli: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: SCRATCH_CODE_CACHE },
  });
}

test("the state commands need nothing from dist/ but state.cjs; state log, and the others on init's config.yaml, never evaluate js-yaml", () => {
  const root = scratchCourse();
  const alone = stateBundleAlone();
  // Each command's first example from its registry entry. This course has no lessons and no tasks: the
  // commands on a lesson or task refuse it (exit 2, one `error:` line) from their own code; a module
  // missing from dist/state.cjs would be an internal error (exit 3).
  const exits = new Map<number | null, string[]>();
  for (const spec of IN_STATE_BUNDLE) {
    const example = spec.examples?.[0];
    assert.ok(example !== undefined, `${spec.name} has no example to run`);
    const words = [...example.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!).slice(1);
    const result = runWith(alone, [...words, '--course', root]);
    if (result.status !== 0) assert.match(result.stderr, /^error: (?!internal)/, `${example}: exit ${result.status}`);
    assert.ok([0, 2].includes(result.status!), `${example}: exit ${result.status}: ${result.stderr}`);
    exits.set(result.status, [...(exits.get(result.status) ?? []), spec.name]);
  }
  assert.ok((exits.get(0)?.length ?? 0) >= 4, `the commands that exited 0: ${exits.get(0)}`);
  const started = runWith(alone, [
    'state',
    'task',
    'start',
    '--phase',
    'recon',
    '--role',
    'researcher',
    '--course',
    root,
  ]);
  assert.equal(started.status, 0, started.stderr);
  // js-yaml's module body, poisoned: state log, and state next and state task start on init's
  // config.yaml (plain YAML, content-schemas/yaml-subset.ts), still work; a config.yaml outside the
  // plain subset (an anchor) evaluates it.
  const marker = '"node_modules/js-yaml/dist/js-yaml.mjs"() {';
  const poisoned = stateBundleAlone((text) => {
    assert.ok(text.includes(marker), 'js-yaml is a lazily evaluated module of dist/state.cjs');
    return text.replace(marker, `${marker} throw new Error("js-yaml evaluated");`);
  });
  const log = runWith(poisoned, ['state', 'log', 'fact', '--data', 'k=v', '--course', root]);
  assert.equal(log.status, 0, log.stderr);
  for (const args of [
    ['state', 'next'],
    ['state', 'show'],
    ['state', 'task', 'list'],
  ]) {
    const plain = runWith(poisoned, [...args, '--course', root]);
    assert.equal(plain.status, 0, `${args.join(' ')} evaluated js-yaml on init's config.yaml: ${plain.stderr}`);
  }
  const config = path.join(root, '.codelabgen', 'config.yaml');
  writeFileSync(config, `${readFileSync(config, 'utf8')}verify_timeout_seconds_again: &anchor 1\n`);
  const next = runWith(poisoned, ['state', 'next', '--course', root]);
  assert.notEqual(next.status, 0, 'state next evaluated no js-yaml: the poisoned bundle proves nothing');
  assert.match(next.stderr, /js-yaml evaluated/);
});

test("dist/main.mjs's static imports hold no store, protocol, report or state module: help and the command table load without them", () => {
  const bundled = [...staticClosure(path.join(DIST, 'main.mjs')).values()].flatMap(sources);
  assert.ok(bundled.includes('cli/commands.ts'), 'the command table is in main.mjs (this test can see it)');
  assert.deepEqual(
    bundled.filter((source) => /^pipeline\/(store|protocol|report|state)\//.test(source)),
    [],
    'a module of the command table (cli/commands.ts, cli/commands-state.ts) imports through a pipeline entry',
  );
});

test('the MCP SDK loads only in the mcp command: main.mjs and the state commands hold none of it', () => {
  const main = [...staticClosure(path.join(DIST, 'main.mjs'))];
  const sdk = (texts: string[]) =>
    texts.flatMap(sources).filter((source) => source.startsWith('node_modules/@modelcontextprotocol/'));
  assert.deepEqual(sdk(main.map(([, text]) => text)), [], 'main.mjs pulls the MCP SDK into every start-up');
  const chunks = main.flatMap(([file, text]) =>
    [...text.matchAll(/import\("\.\/((?:chunks\/)?[a-z-]+-[A-Z0-9]+\.mjs)"\)/g)].map((match) =>
      path.join(path.dirname(file), match[1]!),
    ),
  );
  const mcp = chunks.filter((chunk) => /\/mcp-[A-Z0-9]+\.mjs$/.test(chunk));
  assert.equal(mcp.length, 1, 'one mcp command chunk');
  assert.ok(
    sdk([...staticClosure(mcp[0]!).values()]).length > 0,
    'the mcp chunk bundles the SDK (this test can see it)',
  );
  const stateChunks = chunks.filter((file) => /\/state-[a-z-]+-[A-Z0-9]+\.mjs$/.test(file));
  assert.ok(stateChunks.length >= 8, `state command chunks found: ${stateChunks.length}`);
  for (const chunk of stateChunks) {
    assert.deepEqual(sdk([...staticClosure(chunk).values()]), [], `${path.basename(chunk)} pulls in the MCP SDK`);
  }
  assert.deepEqual(sdk([readFileSync(STATE_BUNDLE, 'utf8')]), [], 'dist/state.cjs pulls in the MCP SDK');
});

/** The packages (`zod`, `@scope/name`) esbuild bundled into `texts`, from its `// node_modules/...` comments. */
function packagesIn(texts: Iterable<string>): Set<string> {
  const found = new Set<string>();
  for (const text of texts)
    for (const source of sources(text))
      if (source.startsWith('node_modules/')) found.add(/^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)![1]!);
  return found;
}

test("each command's chunk loads no package its own code does not reach: no barrel or shared chunk drags one in", async () => {
  // What a command's start-up loads is its chunk and every chunk that imports statically. esbuild
  // places code in chunks file by file, and a barrel (pipeline/index.ts) links every module it
  // re-exports to every command importing it; scripts/barrel-imports.mjs rewrites such imports at
  // bundle time. Here each command module is bundled alone (no chunks, the project's modules taken
  // as free of import-time side effects, the same external packages): what its code reaches. The
  // built chunks may load no package besides those.
  const { CLI_EXTERNAL } = (await import(
    pathToFileURL(path.join(DIST, '..', 'scripts', 'bundle-config.mjs')).href
  )) as {
    CLI_EXTERNAL: string[];
  };
  const modules = [...new Set([...Object.values(LOADERS).map(moduleOf), 'cli/commands/mcp.ts'])].sort();
  assert.ok(modules.length >= 20, `command modules found: ${modules.length}`);
  const repo = path.resolve(DIST, '..');
  const own = new RegExp(`^${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(cli|pipeline|content-schemas)/.*\\.ts$`);
  const alone = await build({
    absWorkingDir: repo,
    entryPoints: modules,
    outdir: path.join(scratchDir('codelabgen-alone-'), 'out'),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    external: CLI_EXTERNAL,
    loader: { '.md': 'text' },
    logLevel: 'silent',
    plugins: [
      {
        name: 'own-modules-without-side-effects',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, async (args) => {
            if (args.pluginData === 'resolving') return undefined;
            const { importer, resolveDir, kind } = args;
            const found = await build.resolve(args.path, { importer, resolveDir, kind, pluginData: 'resolving' });
            return found.errors.length === 0 && own.test(found.path) ? { ...found, sideEffects: false } : undefined;
          });
        },
      },
    ],
  });
  const reached = new Map(
    alone.outputFiles.map((file) => [path.basename(file.path, '.js'), packagesIn([file.text])] as const),
  );
  // Each command chunk, as main.mjs and its chunks import it: `import("./chunks/new-HASH.mjs")`.
  const chunks = new Map<string, string>();
  for (const [file, text] of staticClosure(path.join(DIST, 'main.mjs')))
    for (const match of text.matchAll(/import\("\.\/((?:chunks\/)?([a-z-]+)-[A-Z0-9]+\.mjs)"\)/g))
      chunks.set(match[2]!, path.join(path.dirname(file), match[1]!));
  const extra: string[] = [];
  for (const module of modules) {
    const name = path.basename(module, '.ts');
    const chunk = chunks.get(name);
    assert.ok(chunk, `no chunk of ${module} imported by main.mjs`);
    const loaded = packagesIn(staticClosure(chunk).values());
    const more = [...loaded].filter((pkg) => !reached.get(name)!.has(pkg));
    if (more.length > 0) extra.push(`${name}: ${more.join(', ')}`);
  }
  assert.ok(reached.get('schema')!.has('zod') && reached.get('mcp')!.has('@modelcontextprotocol/sdk'), 'reached');
  assert.deepEqual(extra, [], 'command chunks load packages their code does not reach');
});

// Records every module file the process loads (import and require alike) into $LOADED_MODULES, then
// Node's own modules (process.moduleLoadList) into $LOADED_MODULES.builtin. Preloaded with --require,
// so that only the CLI can start Node's ES module loader. dist/state.cjs itself is read by the
// launcher, not loaded as a module: it is not in the list.
const RECORD_LOADS = `const { registerHooks } = process.getBuiltinModule('node:module');
const { writeFileSync } = process.getBuiltinModule('node:fs');
const loaded = [];
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) loaded.push(url); return next(url, context); } });
process.on('exit', () => {
  writeFileSync(process.env.LOADED_MODULES, loaded.join('\\n'));
  writeFileSync(process.env.LOADED_MODULES + '.builtin', process.moduleLoadList.join('\\n'));
});
`;

/** Runs the CLI; returns its result, the module files it loaded, and Node's modules it loaded. */
function loadsOf(args: string[]): { status: number | null; stderr: string; files: string[]; builtins: string[] } {
  const dir = scratchDir('codelabgen-loads-');
  const hook = path.join(dir, 'record-loads.cjs');
  const list = path.join(dir, 'loaded.txt');
  writeFileSync(hook, RECORD_LOADS);
  const result = spawnSync(process.execPath, ['--require', hook, CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, LOADED_MODULES: list, NO_COLOR: '1' },
  });
  const files = readFileSync(list, 'utf8')
    .split('\n')
    .filter((url) => url !== '')
    .map((url) => fileURLToPath(url));
  const builtins = readFileSync(`${list}.builtin`, 'utf8')
    .split('\n')
    .flatMap((line) => /^NativeModule (\S+)$/.exec(line)?.slice(1) ?? []);
  return { status: result.status, stderr: result.stderr, files, builtins };
}

// Node modules a state command need not load (docs/performance.md): node:crypto, the stream modules
// (which process.stdout on a pipe, node:crypto and an ES import of node:fs pull in), net, what an ES
// import of node:util pulls in, and Node's ES module loader (an ES module anywhere starts it).
const HEAVY_BUILTINS = [
  'crypto',
  'stream',
  'net',
  'internal/fs/promises',
  'worker_threads',
  'internal/modules/esm/module_job',
];

test('state next on a course whose config.yaml has site.accent and repo_url loads no zod and no heavy Node module (a refused accent loads zod)', () => {
  const root = scratchCourse();
  const config = path.join(root, '.codelabgen', 'config.yaml');
  appendFileSync(
    config,
    'site:\n  accent: "#0b7a75"\n  accent_dark: "#7fd4cf"\n  repo_url: "https://github.com/codelabgen/node-streams"\n',
  );
  const fast = loadsOf(['state', 'next', '--course', root]);
  assert.equal(fast.status, 0, fast.stderr);
  assert.deepEqual(
    fast.files,
    [CLI],
    'state next loads modules besides the launcher (and dist/state.cjs, which it reads)',
  );
  assert.deepEqual(
    fast.builtins.filter((name) => HEAVY_BUILTINS.includes(name)),
    [],
    'state next loads heavy Node modules',
  );
  const change = loadsOf(['state', 'log', 'fact', '--data', 'k=v', '--course', root]);
  assert.equal(change.status, 0, change.stderr);
  assert.deepEqual(
    change.builtins.filter((name) => HEAVY_BUILTINS.includes(name)),
    [],
    'state log (lock, temp names, state.json) loads heavy Node modules',
  );
  // The same course with an accent below 4.5:1 fails the generated validator: zod words the refusal.
  writeFileSync(config, readFileSync(config, 'utf8').replace('#0b7a75', '#777777'));
  const refused = loadsOf(['state', 'next', '--course', root]);
  assert.equal(refused.status, 2);
  assert.match(
    refused.stderr,
    /^error: \.codelabgen\/config\.yaml: site\.accent: #777777 has contrast 4\.21:1 with the light background #f6f8fa/,
  );
  assert.ok(refused.files.includes(path.join(DIST, 'schemas.mjs')), 'zod words the refusal');
});

/** The cache files of the launcher in the code cache folder `dir` (its codelabgen/ folder): name → bytes. */
function codeCaches(dir: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const folder = path.join(dir, 'codelabgen');
  for (const name of statSync(folder, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(folder) : [])
    found.set(name, readFileSync(path.join(folder, name)));
  return found;
}

test('the launcher keeps a code cache per state command, taken when a run exits 0, and replaces one V8 rejects or that another bundle wrote', () => {
  const root = scratchCourse();
  const dir = scratchDir('codelabgen-code-cache-');
  const run = (args: string[], env: Record<string, string> = { NODE_COMPILE_CACHE: dir }) => {
    const result = spawnSync(process.execPath, [CLI, ...args, '--course', root], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    return result.stdout;
  };
  // A refused run leaves no cache: it ran little of the command's code.
  assert.equal(
    spawnSync(process.execPath, [CLI, 'state', 'show', '--bogus', '--course', root], {
      env: { ...process.env, NODE_COMPILE_CACHE: dir },
    }).status,
    2,
  );
  assert.equal(codeCaches(dir).size, 0);
  const shown = run(['state', 'show', '--json']);
  const { ino, size, mtimeMs } = statSync(STATE_BUNDLE);
  const identity = Buffer.from(`${ino}:${size}:${mtimeMs}\n`);
  const first = codeCaches(dir);
  const [name, bytes] = [...first][0] ?? [];
  assert.equal(first.size, 1);
  assert.match(name!, new RegExp(`^state-show-${process.version.replaceAll('.', '\\.')}-[0-9a-f]{8}$`));
  assert.ok(
    bytes!.subarray(0, identity.length).equals(identity),
    'the cache starts with the identity of dist/state.cjs',
  );
  assert.ok(bytes!.length > identity.length + 10_000, `a cache of ${bytes!.length} bytes holds no compiled functions`);
  // Written by the first three runs that exit 0 (each adds what its path compiled: the byte after the
  // identity counts them), then used as it is: the fourth neither changes nor rewrites it.
  const writes = () => codeCaches(dir).get(name!)![identity.length];
  assert.equal(writes(), 1);
  assert.equal(run(['state', 'show', '--json']), shown);
  assert.equal(run(['state', 'show', '--json']), shown);
  assert.equal(writes(), 3, 'the second and third runs write the cache again');
  const third = codeCaches(dir);
  assert.equal(run(['state', 'show', '--json']), shown);
  assert.deepEqual(codeCaches(dir), third, 'the fourth run rewrote the cache');
  // Each command its own; NODE_DISABLE_COMPILE_CACHE turns this cache off with Node's.
  run(['state', 'next']);
  run(['state', 'log', 'fact'], { NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '1' });
  assert.deepEqual([...codeCaches(dir).keys()].map((file) => file.replace(/-v[\d.]+-[0-9a-f]{8}$/, '')).sort(), [
    'state-next',
    'state-show',
  ]);
  const logged = run(['state', 'show', '--json']);
  // A cache V8 rejects (garbage after a matching identity), or one for another bundle: replaced.
  const file = path.join(dir, 'codelabgen', name!);
  for (const stale of [
    Buffer.concat([identity, Buffer.alloc(4096, 7)]),
    Buffer.concat([Buffer.from(`1:${size}:${mtimeMs}\n`), bytes!.subarray(identity.length)]),
  ]) {
    writeFileSync(file, stale);
    assert.equal(run(['state', 'show', '--json']), logged);
    const replaced = readFileSync(file);
    assert.ok(
      replaced.subarray(0, identity.length).equals(identity) &&
        !replaced.equals(stale) &&
        replaced.length > identity.length + 10_000,
      'the stale cache was not replaced',
    );
  }
});

test("the code caches live in this user's cache folder, and one others may write is neither read nor written", () => {
  const root = scratchCourse();
  const home = scratchDir('codelabgen-home-');
  const run = (args: string[], env: Record<string, string | undefined>) => {
    const result = spawnSync(process.execPath, [CLI, ...args, '--course', root], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: undefined, XDG_CACHE_HOME: undefined, ...env },
    });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout;
  };
  // No NODE_COMPILE_CACHE: ~/.cache/codelabgen/code-cache, made for this user only (0700); Node's own
  // compile cache (dist/main.mjs) beside the state commands' (never os.tmpdir(), which any user may own).
  run(['state', 'show'], { HOME: home });
  run(['check'], { HOME: home });
  const folder = path.join(home, '.cache', 'codelabgen', 'code-cache');
  assert.equal(statSync(folder).mode & 0o777, 0o700);
  assert.deepEqual(
    [...codeCaches(folder).keys()].map((name) => name.replace(/-v[\d.]+-[0-9a-f]{8}$/, '')),
    ['state-show'],
  );
  assert.ok(
    readdirSync(folder).some((name) => name.startsWith(`${process.version}-`)),
    `Node's compile cache is not in ${folder}: ${readdirSync(folder).join(', ')}`,
  );
  // $XDG_CACHE_HOME first when set.
  const xdg = scratchDir('codelabgen-xdg-');
  run(['state', 'show'], { HOME: home, XDG_CACHE_HOME: xdg });
  assert.equal(codeCaches(path.join(xdg, 'codelabgen', 'code-cache')).size, 1);
  // A folder others may write (or a link to one): nothing read, nothing written; the command still runs.
  const open = scratchDir('codelabgen-open-cache-');
  chmodSync(open, 0o777);
  const planted = path.join(open, 'codelabgen');
  mkdirSync(planted, { mode: 0o700 });
  chmodSync(open, 0o777);
  const stateCaches = (dir: string) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => /(^|\/)state-show-/.test(name));
  const shown = run(['state', 'show'], { NODE_COMPILE_CACHE: open });
  assert.deepEqual(stateCaches(open), [], 'a cache was written into a folder others may write');
  const target = scratchDir('codelabgen-link-target-');
  const linked = path.join(scratchDir('codelabgen-link-'), 'cache');
  symlinkSync(target, linked);
  assert.equal(run(['state', 'show'], { NODE_COMPILE_CACHE: linked }), shown);
  // (Node itself, told NODE_COMPILE_CACHE, keeps its own cache of the launcher there: its choice, not ours.)
  assert.deepEqual(stateCaches(target), [], 'a cache was written through a symlinked folder');
});

test('state next and state log load neither node:module (the ES loader parts it brings) nor fs/dir', () => {
  const root = scratchCourse();
  const dir = scratchDir('codelabgen-builtins-');
  // Only process.moduleLoadList at exit: a hook through node:module would load what this test looks for.
  const hook = path.join(dir, 'record-builtins.cjs');
  writeFileSync(
    hook,
    "process.on('exit', () => process.getBuiltinModule('node:fs').writeFileSync(process.env.LOADED_BUILTINS, process.moduleLoadList.join('\\n')));\n",
  );
  for (const args of [
    ['state', 'next'],
    ['state', 'log', 'fact', '--data', 'k=v'],
  ]) {
    const list = path.join(dir, 'builtins.txt');
    const result = spawnSync(process.execPath, ['--require', hook, CLI, ...args, '--course', root], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', LOADED_BUILTINS: list },
    });
    assert.equal(result.status, 0, result.stderr);
    const loaded = readFileSync(list, 'utf8').split('\n');
    assert.deepEqual(
      ['NativeModule module', 'NativeModule internal/modules/esm/loader', 'NativeModule internal/fs/dir'].filter(
        (name) => loaded.includes(name),
      ),
      [],
      `${args.join(' ')} loads Node modules it does not use`,
    );
  }
});

// What dist/state.cjs may weigh: every state command reads all of it and its code cache on every run
// (380 KB on 2026-12-02). Raise it only with a measurement of what the growth costs (bench/ab.ts).
// 400,000 → 405,000 (2026-12-02, 11:30 UTC): 5 KB of character-code checks in place of regular
// expressions V8 compiled on every run; side by side the state commands got faster, not slower
// (docs/performance.md, "State commands' start-up, 2026-12-02, second session").
const STATE_BUNDLE_MAX_BYTES = 405_000;
// Modules `state log` must not evaluate: it reads no YAML (esbuild wraps each module dist/state.cjs
// reaches lazily in an init function named after its source).
const NOT_EVALUATED_BY_STATE_LOG = ['node_modules/js-yaml/dist/js-yaml.mjs', 'content-schemas/yaml.ts'];

test('dist/state.cjs stays under its size budget, and state log evaluates none of the modules it must not', () => {
  const text = readFileSync(STATE_BUNDLE, 'utf8');
  assert.ok(
    text.length <= STATE_BUNDLE_MAX_BYTES,
    `dist/state.cjs is ${text.length} bytes, over its budget of ${STATE_BUNDLE_MAX_BYTES}`,
  );
  // A copy whose module init helper records each module it evaluates, on exit, into $EVALUATED.
  const helper = 'var __esm = (fn, res, err) => function __init() {';
  const recording = stateBundleAlone((bundle) => {
    assert.ok(bundle.includes(helper), "esbuild's __esm helper changed: update this test");
    return bundle.replace(
      helper,
      'const __evaluated = []; process.on("exit", () => require("node:fs").writeFileSync(process.env.EVALUATED, __evaluated.join("\\n")));\n' +
        'var __esm = (fn, res, err) => function __init() { if (fn) __evaluated.push(__getOwnPropNames(fn)[0]);',
    );
  });
  const root = scratchCourse();
  const list = path.join(scratchDir('codelabgen-evaluated-'), 'evaluated.txt');
  const evaluated = (args: string[]) => {
    const result = spawnSync(process.execPath, [recording, ...args, '--course', root], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: SCRATCH_CODE_CACHE, EVALUATED: list },
    });
    assert.equal(result.status, 0, result.stderr);
    return readFileSync(list, 'utf8').split('\n');
  };
  const byLog = evaluated(['state', 'log', 'fact', '--data', 'k=v']);
  assert.ok(byLog.includes('pipeline/store/commit.ts'), `the recording sees no module: ${byLog.join(', ')}`);
  assert.deepEqual(
    byLog.filter((name) => NOT_EVALUATED_BY_STATE_LOG.some((source) => name.endsWith(source))),
    [],
  );
});

/** The state commands the two counts below are taken of: a fact logged, a stage forward and back. */
const COUNTED_COMMANDS = [
  ['state', 'log', 'fact', '--data', 'k=v'],
  ['state', 'set', '1.1', 'spec', '--note', 'ready'],
  ['state', 'set', '1.1', 'pending', '--note', 'again'],
];

/**
 * A 10-lesson course and a runner of the CLI on it with the preload `hook` (CommonJS source that writes
 * what it counted to $HOOK_OUT at exit): each run exits 0 and returns what the hook wrote.
 */
function hookedRuns(name: string, hook: string): (args: string[]) => string {
  const root = path.join(scratchDir(`codelabgen-${name}-`), 'course');
  buildStateCourse(root, { lessons: 10, specs: true });
  const dir = scratchDir(`codelabgen-${name}-hook-`);
  const hookFile = path.join(dir, 'hook.cjs');
  writeFileSync(hookFile, hook);
  const out = path.join(dir, 'out.txt');
  return (args) => {
    const result = spawnSync(process.execPath, ['--require', hookFile, CLI, ...args, '--course', root], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: SCRATCH_CODE_CACHE, HOOK_OUT: out },
    });
    assert.equal(result.status, 0, result.stderr);
    return readFileSync(out, 'utf8');
  };
}

// node:path calls that normalize (join, resolve, relative) a state command may make, launcher and
// Node's module loader included. Around 100 (4 per abs(), 2026-12-02) made V8 optimize node:path's
// normalizeString with TurboFan on a second thread during state log and state set, 2-4 ms of CPU
// (docs/performance.md, "State commands' start-up"); abs() and realPathOf() now join and compare
// course paths as text. The count is exact and does not depend on the machine.
const PATH_CALLS_MAX = 40;

test('state log and state set make few node:path calls: not enough for V8 to optimize normalizeString during the command', () => {
  // Counts the calls through node:path's exports (node:fs only at exit).
  const run = hookedRuns(
    'path-calls',
    "const path = require('node:path'); let calls = 0;\n" +
      "for (const name of ['join', 'resolve', 'relative']) {\n" +
      '  const real = path[name];\n' +
      '  path[name] = function (...args) { calls += 1; return real.apply(this, args); };\n' +
      '}\n' +
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.HOOK_OUT, String(calls)));\n",
  );
  for (const args of COUNTED_COMMANDS) {
    const calls = Number(run(args));
    assert.ok(calls > 5, `the hook counted ${calls} calls: it sees none of the bundle's`);
    assert.ok(calls <= PATH_CALLS_MAX, `${args.join(' ')}: ${calls} node:path calls, over ${PATH_CALLS_MAX}`);
  }
});

// Regular expressions a state command may run: V8 compiles each one at its first run in a process
// (20-300 µs, the ISO date-time expression the most) and again to machine code at its second. On
// 2026-12-02 state log ran 10 and state set 19; string tests decide first now (docs/performance.md).
const EXPRESSIONS_MAX = 4;

test('state log and state set run few regular expressions: each is compiled anew in every process', () => {
  // Every use of an expression goes through RegExp.prototype.exec once it is replaced (no fast path).
  const run = hookedRuns(
    'expressions',
    'const seen = new Set(); const exec = RegExp.prototype.exec;\n' +
      'RegExp.prototype.exec = function (text) { seen.add(String(this)); return exec.call(this, text); };\n' +
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.HOOK_OUT, [...seen].join('\\n')));\n",
  );
  run(['state', 'log', 'fact', '--data', 'k=v']); // the first write stamps state.json: later reads skip its full check
  for (const args of COUNTED_COMMANDS) {
    const used = run(args).split('\n').filter(Boolean);
    assert.ok(used.length <= EXPRESSIONS_MAX, `${args.join(' ')} ran ${used.length} expressions:\n${used.join('\n')}`);
  }
});
