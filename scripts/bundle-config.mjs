// What scripts/build.mjs leaves out of the CLI's bundle (dist/main.mjs and its chunks): packages that
// load from node_modules at run time, only in the commands that need them. Also read by
// bench/bundle.test.ts, which bundles each command alone with the same list.
// linkedom is bundled: only the diagram parser's child loads it (its window for mermaid), and one
// file loads in about a third of the CPU of its 200 modules (docs/performance.md, "linkedom bundled").
export const CLI_EXTERNAL = [
  'astro',
  'astro/*',
  '@astrojs/*',
  'astro-expressive-code',
  '@expressive-code/*',
  'mermaid',
  'pagefind',
  'playwright',
  'playwright-core',
  '@playwright/*',
  'shiki',
  'vite',
  'satteri',
  'chokidar',
  'jsdom',
  'dompurify',
];
