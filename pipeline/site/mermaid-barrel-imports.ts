// Fewer modules for mermaid's load in the diagram parser's child process only
// (pipeline/site/diagram-parse-child.ts; the renderer, pipeline/site/diagrams.ts, loads mermaid as it
// is). mermaid imports four functions from `es-toolkit/compat` and five from `@iconify/utils`; each of
// those is a "barrel", a file that only imports every function of its package from the function's
// own file and exports them all: 415 and 65 of the 794 modules Node loads for mermaid and its DOM
// (docs/performance.md, "mermaid's load").
//
// A module load hook rewrites, in mermaid's own files, `import { a, b } from "<barrel>"` into an
// import of a module made here that exports `a` and `b` straight from the files the barrel takes
// them from: the same files, so the same module instances and the same functions, without the
// others. It applies only where that cannot change what runs: the barrel's package says it has no
// side effects (`"sideEffects": false`), the barrel is nothing but `import { ... } from "./..."`
// lines, side-effect-free `import "./..."` lines and one `export { ... }` list, and it exports
// every name asked for from such a line; otherwise the barrel is imported as it is. The child's
// answer says which barrels were trimmed (`trimmed`); pipeline/site/diagram-parse-dom.test.ts
// compares every outcome and message with mermaid as it is and fails if a barrel was not trimmed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The barrels mermaid imports a few functions from (the specifiers as mermaid's files write them). */
export const BARRELS = ['es-toolkit/compat', '@iconify/utils'] as const;

const SCHEME = 'codelabgen-barrel:';
const ONLY = '?codelabgen-only=';
const NAME = /^[A-Za-z_$][\w$]*$/;

/** A `{ a, b as c }` list: [imported, local] pairs, or null when it is not a plain list of names. */
function namesOf(list: string): Array<[string, string]> | null {
  const pairs: Array<[string, string]> = [];
  for (const entry of list.split(',')) {
    const text = entry.trim();
    if (text === '') continue;
    const parts = text.split(/\s+as\s+/);
    const [from, to = from] = parts;
    if (parts.length > 2 || from === undefined || !NAME.test(from) || !NAME.test(to!)) return null;
    pairs.push([from, to!]);
  }
  return pairs;
}

/**
 * mermaid's file with each `import { ... } from "<barrel>"` (BARRELS) made an import of
 * `codelabgen-barrel:<barrel>?codelabgen-only=<names>`, which the resolve hook below resolves from
 * the same file; null when the file imports none of them.
 */
export function rewriteBarrelImports(source: string): string | null {
  let changed = false;
  const rewritten = source.replace(
    /^import \{([^}]*)\} from "([^"]+)";$/gm,
    (statement, list: string, specifier: string) => {
      const pairs = namesOf(list);
      if (!(BARRELS as readonly string[]).includes(specifier) || pairs === null || pairs.length === 0) return statement;
      changed = true;
      const names = [...new Set(pairs.map(([name]) => name))].sort().join(',');
      return `import {${list}} from "${SCHEME}${specifier}${ONLY}${names}";`;
    },
  );
  return changed ? rewritten : null;
}

/** What a barrel's source says: each exported name's file (`./...`), or null when it is not only that. */
export function barrelExports(source: string): Map<string, { file: string; local: string }> | null {
  const importedFrom = new Map<string, string>();
  let exported: Array<[string, string]> | null = null;
  const statements = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\/\/.*$/, '').trim())
    .filter((line) => line !== '');
  for (const statement of statements) {
    const named = /^import \{([^}]*)\} from "(\.\.?\/[^"]+)";$/.exec(statement);
    const bare = /^import "(\.\.?\/[^"]+)";$/.exec(statement);
    const exports = /^export \{([^}]*)\};$/.exec(statement);
    if (named) {
      const pairs = namesOf(named[1]!);
      if (pairs === null) return null;
      for (const [from, local] of pairs) {
        if (from !== local) return null;
        importedFrom.set(local, named[2]!);
      }
    } else if (bare) {
      // a module imported for its side effects only: the package says it has none
    } else if (exports && exported === null) {
      exported = namesOf(exports[1]!);
      if (exported === null) return null;
    } else return null;
  }
  if (exported === null) return null;
  const files = new Map<string, { file: string; local: string }>();
  for (const [local, name] of exported) {
    const file = importedFrom.get(local);
    if (file !== undefined) files.set(name, { file, local });
  }
  return files;
}

/** The package.json of the package a file is in (the nearest one above it that has a name), or null. */
function packageOf(file: string): { sideEffects?: unknown } | null {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        sideEffects?: unknown;
      };
      if (typeof json.name === 'string') return json;
    } catch {
      // no package.json here: one folder up
    }
  }
  return null;
}

/**
 * The module that stands for the barrel at `barrelUrl` when only `names` are imported: each name
 * exported from the barrel's own file for it; null when the barrel is not one that can be trimmed.
 */
export function trimmedBarrel(barrelUrl: string, names: readonly string[]): string | null {
  const key = `${barrelUrl}${ONLY}${names.join(',')}`;
  if (!made.has(key)) made.set(key, makeTrimmedBarrel(barrelUrl, names));
  return made.get(key) ?? null;
}

const made = new Map<string, string | null>();

function makeTrimmedBarrel(barrelUrl: string, names: readonly string[]): string | null {
  if (!barrelUrl.startsWith('file:')) return null;
  const file = fileURLToPath(barrelUrl);
  if (packageOf(file)?.sideEffects !== false) return null;
  let exports: ReturnType<typeof barrelExports>;
  try {
    exports = barrelExports(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (exports === null) return null;
  const lines: string[] = [];
  for (const name of names) {
    const from = exports.get(name);
    if (from === undefined) return null;
    const binding = from.local === name ? name : `${from.local} as ${name}`;
    lines.push(`export { ${binding} } from ${JSON.stringify(new URL(from.file, barrelUrl).href)};`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Registers the hooks (before mermaid is imported); `trimmed()` lists the barrels (BARRELS) that
 * were replaced by the few functions mermaid imports of them. Only mermaid's own `dist/` files are
 * rewritten.
 */
export function trimMermaidBarrelImports(): { trimmed: () => string[] } {
  const trimmed = new Set<string>();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!specifier.startsWith(SCHEME)) return nextResolve(specifier, context);
      const [barrel = '', names = ''] = specifier.slice(SCHEME.length).split(ONLY);
      const resolved = nextResolve(barrel, context);
      const list = names.split(',');
      if (trimmedBarrel(resolved.url, list) === null) return resolved; // the barrel as it is
      trimmed.add(barrel);
      return { ...resolved, url: `${resolved.url}${ONLY}${names}`, format: 'module', shortCircuit: true };
    },
    load(url, context, nextLoad) {
      const only = url.indexOf(ONLY);
      if (only !== -1 && url.startsWith('file:')) {
        const source = trimmedBarrel(url.slice(0, only), url.slice(only + ONLY.length).split(','));
        if (source !== null) return { format: 'module', source, shortCircuit: true };
      }
      const loaded = nextLoad(url, context);
      if (!/\/node_modules\/mermaid\/dist\/[\w./-]+\.mjs$/.test(url)) return loaded;
      const text = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
      const rewritten = rewriteBarrelImports(text);
      return rewritten === null ? loaded : { ...loaded, source: rewritten };
    },
  });
  return { trimmed: () => [...trimmed].sort() };
}
