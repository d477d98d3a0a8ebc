// The course site as the package ships it (imported by scripts/build.mjs): a copy of site/ in
// dist/site/ whose TypeScript modules are compiled to JavaScript by esbuild. Astro components and
// styles are copied; every relative import names the compiled file, and the two cross-folder entry
// files the site imports (content-schemas/index.ts, pipeline/read/index.ts) name their dist/ bundles.
import { transform } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Files of site/ the package leaves out: tests, and what only type-checks the sources. */
const SOURCE_ONLY = /\.test\.ts$|\.d\.ts$|(^|\/)tsconfig\.json$/;

/** `from '...'`, `import '...'`, `import('...')` with a relative specifier (JS, TS and Astro frontmatter). */
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"\n]+?)\2/g;

/**
 * Compiles `siteDir` into `outDir`. `bundles` maps a repository file outside site/ that the site
 * imports to the dist/ file that replaces it (absolute paths); any other import from outside site/
 * fails the build, so the package never refers to a source it does not ship.
 */
export async function buildSite(siteDir, outDir, bundles) {
  const files = readdirSync(siteDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  await Promise.all(
    files.map(async (entry) => {
      const from = path.join(entry.parentPath, entry.name);
      const relative = path.relative(siteDir, from);
      if (SOURCE_ONLY.test(relative.split(path.sep).join('/'))) return;
      const to = path.join(outDir, relative.replace(/\.ts$/, '.js'));
      mkdirSync(path.dirname(to), { recursive: true });
      if (!/\.(ts|astro)$/.test(from)) return copyFileSync(from, to);
      let text = readFileSync(from, 'utf8');
      if (from.endsWith('.ts'))
        text = (await transform(text, { loader: 'ts', format: 'esm', target: 'node22', sourcefile: relative })).code;
      writeFileSync(to, rewriteImports(text, from, to, siteDir, bundles));
    }),
  );
}

function rewriteImports(text, from, to, siteDir, bundles) {
  return text.replace(RELATIVE_IMPORT, (_statement, keyword, quote, specifier) => {
    const [file, query] = specifier.split(/(?=\?)/);
    const target = path.resolve(path.dirname(from), file);
    let compiled;
    if (!path.relative(siteDir, target).startsWith('..'))
      compiled = path.join(path.dirname(to), file.replace(/\.ts$/, '.js'));
    else if (bundles[target] !== undefined) compiled = bundles[target];
    else
      throw new Error(
        `${path.relative(process.cwd(), from)} imports ${specifier}, which the package does not ship: add it to the site's bundles in scripts/build.mjs`,
      );
    let relative = path.relative(path.dirname(to), compiled).split(path.sep).join('/');
    if (!relative.startsWith('.')) relative = `./${relative}`;
    return `${keyword}${quote}${relative}${query ?? ''}${quote}`;
  });
}
