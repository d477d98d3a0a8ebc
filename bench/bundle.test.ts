// The start-up budget in the built dist/: the state commands' chunks and all they import statically
// hold no zod or zod schema (zod loads only when a file fails its generated validator), and
// `state log`'s no js-yaml; and what a real course's `state next` loads at run time holds no zod.
// esbuild names each bundled source in a `// path` comment.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI, scratchCourse, scratchDir } from '../cli/testing.ts';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** The chunk file `name` and every chunk it imports statically, transitively. */
function staticClosure(file: string): Map<string, string> {
  const seen = new Map<string, string>();
  const todo = [file];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (seen.has(next)) continue;
    const text = readFileSync(next, 'utf8');
    seen.set(next, text);
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.\/[^"]+)"/gms)) todo.push(path.join(path.dirname(next), match[1]!));
  }
  return seen;
}

/** Sources bundled into `text`, from esbuild's `// path/to/source.ts` comments. */
function sources(text: string): string[] {
  return [...text.matchAll(/^\/\/ ((?:node_modules|content-schemas|pipeline|cli)\/\S+)$/gm)].map((match) => match[1]!);
}

const ZOD_FREE_SCHEMA_FILES = new Set(['content-schemas/errors.ts', 'content-schemas/fast.ts', 'content-schemas/lazy-load.ts', 'content-schemas/names.ts', 'content-schemas/parse.ts', 'content-schemas/validators.generated.ts', 'content-schemas/contrast.ts', 'content-schemas/refinements.ts']);

for (const command of ['state-show', 'state-next', 'state-log', 'state-set']) {
  test(`${command.replace('-', ' ')} loads no zod: its chunks import only the generated validators`, () => {
    // The command table may sit in main.mjs or in a chunk it imports statically.
    const loader = new RegExp(`import\\("\\./((?:chunks/)?${command}-[A-Z0-9]+\\.mjs)"\\)`);
    const chunk = [...staticClosure(path.join(DIST, 'main.mjs'))].flatMap(([file, text]) => {
      const found = loader.exec(text)?.[1];
      return found === undefined ? [] : [path.join(path.dirname(file), found)];
    })[0];
    assert.ok(chunk, `dist/main.mjs loads no ${command} chunk: run node scripts/build.mjs`);
    const bundled = [...staticClosure(chunk).values()].flatMap(sources);
    assert.ok(bundled.includes('content-schemas/validators.generated.ts'), 'the generated validators are on the path');
    const heavy = bundled.filter((source) => source.startsWith('node_modules/zod/') || (source.startsWith('content-schemas/') && !ZOD_FREE_SCHEMA_FILES.has(source)));
    assert.deepEqual(heavy, [], `${command} pulls zod into its start-up`);
    if (command === 'state-log') assert.deepEqual(bundled.filter((source) => source.startsWith('node_modules/js-yaml/')), [], 'state log reads no YAML: js-yaml stays out of its start-up');
  });
}

test('the MCP SDK loads only in the mcp command: main.mjs and the state commands hold none of it', () => {
  const main = [...staticClosure(path.join(DIST, 'main.mjs'))];
  const sdk = (texts: string[]) => texts.flatMap(sources).filter((source) => source.startsWith('node_modules/@modelcontextprotocol/'));
  assert.deepEqual(sdk(main.map(([, text]) => text)), [], 'main.mjs pulls the MCP SDK into every start-up');
  const chunks = main.flatMap(([file, text]) => [...text.matchAll(/import\("\.\/((?:chunks\/)?[a-z-]+-[A-Z0-9]+\.mjs)"\)/g)].map((match) => path.join(path.dirname(file), match[1]!)));
  const mcp = chunks.filter((chunk) => /\/mcp-[A-Z0-9]+\.mjs$/.test(chunk));
  assert.equal(mcp.length, 1, 'one mcp command chunk');
  assert.ok(sdk([...staticClosure(mcp[0]!).values()]).length > 0, 'the mcp chunk bundles the SDK (this test can see it)');
  const stateChunks = chunks.filter((file) => /\/state-[a-z-]+-[A-Z0-9]+\.mjs$/.test(file));
  assert.ok(stateChunks.length >= 8, `state command chunks found: ${stateChunks.length}`);
  for (const chunk of stateChunks) {
    assert.deepEqual(sdk([...staticClosure(chunk).values()]), [], `${path.basename(chunk)} pulls in the MCP SDK`);
  }
});

// Records every module file the process loads (import and require alike) into $LOADED_MODULES, then
// Node's own modules (process.moduleLoadList) into $LOADED_MODULES.builtin.
const RECORD_LOADS = `const { registerHooks } = process.getBuiltinModule('node:module');
const { writeFileSync } = process.getBuiltinModule('node:fs');
const loaded = [];
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) loaded.push(url); return next(url, context); } });
process.on('exit', () => {
  writeFileSync(process.env.LOADED_MODULES, loaded.join('\\n'));
  writeFileSync(process.env.LOADED_MODULES + '.builtin', process.moduleLoadList.join('\\n'));
});
`;

/** Runs the CLI; returns its result, the sources bundled into every dist/ file it loaded, and Node's modules it loaded. */
function loadsOf(args: string[]): { status: number | null; stderr: string; files: string[]; bundled: string[]; builtins: string[] } {
  const dir = scratchDir('codelabgen-loads-');
  const hook = path.join(dir, 'record-loads.mjs');
  const list = path.join(dir, 'loaded.txt');
  writeFileSync(hook, RECORD_LOADS);
  const result = spawnSync(process.execPath, ['--import', hook, CLI, ...args], { encoding: 'utf8', env: { ...process.env, LOADED_MODULES: list, NO_COLOR: '1' } });
  const files = readFileSync(list, 'utf8').split('\n').filter((url) => url !== '').map((url) => fileURLToPath(url));
  const bundled = files.filter((file) => file.startsWith(DIST)).flatMap((file) => sources(readFileSync(file, 'utf8')));
  const builtins = readFileSync(`${list}.builtin`, 'utf8').split('\n').flatMap((line) => /^NativeModule (\S+)$/.exec(line)?.slice(1) ?? []);
  return { status: result.status, stderr: result.stderr, files, bundled, builtins };
}

// Node modules a state command need not load (docs/performance.md): node:crypto, the stream modules
// (which process.stdout on a pipe, node:crypto and an ES import of node:fs pull in), net, and what
// an ES import of node:util pulls in.
const HEAVY_BUILTINS = ['crypto', 'stream', 'net', 'internal/fs/promises', 'worker_threads'];

test('state next on a course whose config.yaml has site.accent and repo_url loads no zod and no heavy Node module (a refused accent loads zod)', () => {
  const root = scratchCourse();
  const config = path.join(root, '.codelabgen', 'config.yaml');
  appendFileSync(config, 'site:\n  accent: "#0b7a75"\n  accent_dark: "#7fd4cf"\n  repo_url: "https://github.com/codelabgen/node-streams"\n');
  const fast = loadsOf(['state', 'next', '--course', root]);
  assert.equal(fast.status, 0, fast.stderr);
  assert.ok(fast.files.includes(path.join(DIST, 'yaml.mjs')), 'config.yaml was read');
  assert.ok(!fast.files.includes(path.join(DIST, 'schemas.mjs')), 'dist/schemas.mjs (zod) was loaded');
  assert.deepEqual(fast.bundled.filter((source) => source.startsWith('node_modules/zod/')), []);
  assert.deepEqual(fast.builtins.filter((name) => HEAVY_BUILTINS.includes(name)), [], 'state next loads heavy Node modules');
  const change = loadsOf(['state', 'log', 'fact', '--data', 'k=v', '--course', root]);
  assert.equal(change.status, 0, change.stderr);
  assert.deepEqual(change.builtins.filter((name) => HEAVY_BUILTINS.includes(name)), [], 'state log (lock, temp names, state.json) loads heavy Node modules');
  // The same course with an accent below 4.5:1 fails the generated validator: zod words the refusal.
  writeFileSync(config, readFileSync(config, 'utf8').replace('#0b7a75', '#777777'));
  const refused = loadsOf(['state', 'next', '--course', root]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /^error: \.codelabgen\/config\.yaml: site\.accent: #777777 has contrast 4\.21:1 with the light background #f6f8fa/);
  assert.ok(refused.files.includes(path.join(DIST, 'schemas.mjs')), 'zod words the refusal');
});
