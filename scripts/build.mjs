// Bundles the CLI into dist/ with esbuild: one small entry chunk (the command table and help) and
// one chunk per command, so `codelabgen --help` loads almost nothing. Heavy site dependencies stay
// external and load only in the site commands.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { main: 'cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  define: { CODELABGEN_VERSION: JSON.stringify(pkg.version) },
  external: ['astro', 'astro/*', '@astrojs/*', 'mermaid', 'mermaid-isomorphic', 'pagefind', 'playwright', 'playwright-core', '@playwright/*', 'shiki', 'vite'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
