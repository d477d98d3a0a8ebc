// Bundles the CLI into dist/ with esbuild: one small entry chunk (the command table and help) and
// one chunk per command, so `codelabgen --help` loads almost nothing. Heavy site dependencies stay
// external and load only in the site commands; zod loads only when a command needs it.
import { build } from 'esbuild';
import { existsSync, linkSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { withoutBarrelImports } from './barrel-imports.mjs';
import { CLI_EXTERNAL } from './bundle-config.mjs';
import { buildSite } from './build-site.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The hot path validates with plain functions generated from the zod schemas; regenerate them so a
// schema change never needs a separate step. A Node without TypeScript support (the prepare script
// on an old node) keeps the committed file; content-schemas/validators.test.ts catches a stale one.
const validators = new URL('../content-schemas/validators.generated.ts', import.meta.url);
if (process.features.typescript) {
  const { renderValidators } = await import('../content-schemas/generate-validators.ts');
  const text = renderValidators();
  if (!existsSync(validators) || readFileSync(validators, 'utf8') !== text) writeFileSync(validators, text);
}
// Build beside dist/ and swap it in, so CLI processes running during a rebuild never see a
// half-written or missing bundle.
const dist = new URL('../dist', import.meta.url);
const fresh = new URL(`../dist.${process.pid}.tmp`, import.meta.url);
const old = new URL(`../dist.${process.pid}.old`, import.meta.url);
rmSync(fresh, { recursive: true, force: true });

// zod re-exports every locale as `z.locales` (about 370 KB the CLI would parse on each start);
// codelabgen speaks English only, so its locale index is replaced by English alone.
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/zod/') ? { path: 'zod-locales-en', namespace: 'codelabgen' } : undefined,
    );
    build.onLoad({ filter: /^zod-locales-en$/, namespace: 'codelabgen' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: new URL('..', import.meta.url).pathname,
    }));
  },
};

// An ES module import of a Node builtin builds its namespace, reading every export: `node:fs` then
// loads fs/promises, streams and readline, `node:util` worker_threads, several ms of every command's
// start-up (docs/performance.md). In the project's own sources each `import ... from 'node:x'` is
// bundled as `const ... = process.getBuiltinModule('node:x')`, so only what the code touches loads.
const BUILTIN_IMPORT =
  /^import\s+(?!type\s)([\w$]+\s*,\s*)?(\*\s+as\s+[\w$]+|[\w$]+|\{[^}]*\})\s+from\s+'(node:[\w/]+)';/gm;

function builtinsByProperty(source) {
  return source.replace(BUILTIN_IMPORT, (statement, defaultAndComma, bindings, specifier) => {
    const module = `process.getBuiltinModule('${specifier}')`;
    const names = (list) =>
      list
        .slice(1, -1)
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type '))
        .map((name) => name.replace(/\s+as\s+/, ': '));
    const lines = [];
    let from = module;
    if (defaultAndComma) {
      const name = defaultAndComma.replace(/[\s,]/g, '');
      lines.push(`const ${name} = ${module};`);
      from = name;
    }
    if (bindings.startsWith('{')) lines.push(`const { ${names(bindings).join(', ')} } = ${from};`);
    else lines.push(`const ${bindings.replace(/^\*\s+as\s+/, '')} = ${from};`);
    // On one line, then as many line breaks as the import had: line numbers (and source maps) stay.
    return lines.join(' ') + '\n'.repeat(statement.split('\n').length - 1);
  });
}

// The one loader of the project's own TypeScript, so it also takes the other source rewrite: imports
// through a barrel become imports of the defining modules (scripts/barrel-imports.mjs).
const builtinsWithoutNamespaces = {
  name: 'builtins-without-namespaces',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) =>
      args.path.includes('/node_modules/')
        ? undefined
        : {
            contents: builtinsByProperty(withoutBarrelImports(args.path, readFileSync(args.path, 'utf8'))),
            loader: 'ts',
          },
    );
  },
};

// `node scripts/build.mjs --metafile FILE.json` also writes esbuild's metafiles (what each chunk
// holds): FILE.json for dist/main.mjs and its chunks, FILE.state.json for dist/state.cjs.
const metafileAt = process.argv.indexOf('--metafile');
const result = await build({
  metafile: metafileAt !== -1,
  // schemas, yaml, markdown and report-files: loaded (content-schemas/lazy-load.ts) only by a command that needs
  // them: zod when a file fails its generated validator, js-yaml when a YAML file is read, marked
  // when a lesson doc is lexed, the report's code when `state phase done` writes the report.
  // site-read: pipeline/read/index.ts for the compiled site (dist/site/, below); the integration
  // serves the instance it loaded itself in its place (pipeline/site/integration.ts, sharedPipelinePlugin).
  entryPoints: {
    main: 'cli/main.ts',
    schemas: 'content-schemas/index.ts',
    yaml: 'content-schemas/yaml.ts',
    markdown: 'pipeline/site/marked.ts',
    'report-files': 'pipeline/report/files.ts',
    'site-worker': 'pipeline/site/worker.ts',
    astro: 'pipeline/site/integration.ts',
    'site-read': 'pipeline/read/index.ts',
    'stage-docs': 'pipeline/site/stage-docs.ts',
    notify: 'pipeline/progress/notify.ts',
    'diagram-parse': 'pipeline/site/diagram-parse-child.ts',
  },
  outdir: `dist.${process.pid}.tmp`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  define: {
    CODELABGEN_VERSION: JSON.stringify(pkg.version),
    CODELABGEN_BUNDLED: 'true',
    CODELABGEN_STATE_BUNDLE: 'false',
  },
  external: CLI_EXTERNAL,
  loader: { '.md': 'text' }, // the mcp command's orchestrate prompt carries docs/agents.md
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  plugins: [englishOnlyZodLocales, builtinsWithoutNamespaces],
  logLevel: 'warning',
});
if (metafileAt !== -1) writeFileSync(process.argv[metafileAt + 1], JSON.stringify(result.metafile));

// The state commands, with all they run, in one CommonJS file: loading it costs less than Node's ES
// module loader resolving and linking the dozen chunks main.mjs would load for them
// (docs/performance.md). cli/state-main.ts has its own loaders: the command table (cli/commands.ts)
// is data and imports no command, so no other command's code is bundled.
const stateResult = await build({
  metafile: metafileAt !== -1,
  entryPoints: { state: 'cli/state-main.ts' },
  outdir: `dist.${process.pid}.tmp`,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  outExtension: { '.js': '.cjs' },
  sourcemap: 'linked',
  // js-yaml is bundled too (content-schemas/lazy-load.ts), evaluated on the first YAML file read.
  define: {
    CODELABGEN_VERSION: JSON.stringify(pkg.version),
    CODELABGEN_BUNDLED: 'true',
    CODELABGEN_STATE_BUNDLE: 'true',
    'import.meta.url': 'import_meta_url',
  },
  banner: { js: "const import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [builtinsWithoutNamespaces],
  logLevel: 'warning',
});
if (metafileAt !== -1)
  writeFileSync(process.argv[metafileAt + 1].replace(/(\.json)?$/, '.state$1'), JSON.stringify(stateResult.metafile));

// The site the integration mounts, compiled (scripts/build-site.mjs): the package ships no TypeScript
// source. The expressive-code settings are imported by path by the <Code> component, run in Vite
// (pipeline/site/integration.ts): one file of their own, the packages they use left to the host.
const tmp = (file) => new URL(`../dist.${process.pid}.tmp/${file}`, import.meta.url).pathname;
await Promise.all([
  buildSite(new URL('../site', import.meta.url).pathname, tmp('site'), {
    [new URL('../content-schemas/index.ts', import.meta.url).pathname]: tmp('schemas.mjs'),
    [new URL('../pipeline/read/index.ts', import.meta.url).pathname]: tmp('site-read.mjs'),
  }),
  build({
    entryPoints: { 'site-expressive-code': 'pipeline/site/expressive-code.ts' },
    outdir: `dist.${process.pid}.tmp`,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  }),
]);

// A CLI process that loaded the previous main.mjs may still import its command chunk: carry the
// previous build's chunks over (hashed names never clash), dropping those older than ten minutes.
const freshChunks = new URL(`../dist.${process.pid}.tmp/chunks/`, import.meta.url);
const oldChunks = new URL('../dist/chunks/', import.meta.url);
if (existsSync(oldChunks)) {
  for (const name of readdirSync(oldChunks)) {
    const from = new URL(name, oldChunks);
    const to = new URL(name, freshChunks);
    if (!existsSync(to) && Date.now() - statSync(from).mtimeMs < 600_000) linkSync(from, to);
  }
}
if (existsSync(dist)) renameSync(dist, old);
renameSync(fresh, dist);
rmSync(old, { recursive: true, force: true });
