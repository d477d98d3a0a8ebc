// Bundles the CLI into dist/ with esbuild: one small entry chunk (the command table and help) and
// one chunk per command, so `codelabgen --help` loads almost nothing. Heavy site dependencies stay
// external and load only in the site commands.
import { build } from 'esbuild';
import { existsSync, linkSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
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
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => (args.importer.includes('/zod/') ? { path: 'zod-locales-en', namespace: 'codelabgen' } : undefined));
    build.onLoad({ filter: /^zod-locales-en$/, namespace: 'codelabgen' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: new URL('..', import.meta.url).pathname,
    }));
  },
};

await build({
  entryPoints: { main: 'cli/main.ts', 'site-worker': 'pipeline/site/worker.ts', astro: 'pipeline/site/integration.ts' },
  outdir: `dist.${process.pid}.tmp`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  define: { CODELABGEN_VERSION: JSON.stringify(pkg.version) },
  external: ['astro', 'astro/*', '@astrojs/*', 'astro-expressive-code', '@expressive-code/*', 'mermaid', 'mermaid-isomorphic', 'pagefind', 'playwright', 'playwright-core', '@playwright/*', 'shiki', 'vite'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [englishOnlyZodLocales],
  logLevel: 'warning',
});

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
