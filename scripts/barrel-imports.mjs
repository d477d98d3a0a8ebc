// Imports through a barrel (a module that only re-exports, such as pipeline/index.ts or
// content-schemas/index.ts) rewritten, at bundle time, into imports of the modules that define the
// names. The sources keep their barrels (cli/ imports only pipeline/index.ts: docs/architecture.md);
// the bundle does not need them. esbuild decides which modules a command's chunk needs file by file,
// and a barrel that any command uses links every module it re-exports to every command that imports
// it: each command then loaded zod's schemas, marked, yaml and sanitize-html whether it used them or
// not (docs/performance.md, "What a command loads"). bench/bundle.test.ts checks what each command's
// chunk loads.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Comments removed, so that the statement patterns below see code only (strings are left alone). */
function withoutComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

const REEXPORT = /^export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+'(\.[^']+)';?\s*$/gm;

/** The entries of an export or import list: `{ a, b as c, type T }` → [{ name, as, type }]. */
function listEntries(list) {
  return list
    .slice(1, -1)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const type = entry.startsWith('type ');
      const [name, as] = entry.replace(/^type\s+/, '').split(/\s+as\s+/);
      return { name: name.trim(), as: (as ?? name).trim(), type };
    });
}

const barrels = new Map();

/**
 * For a barrel (every statement an `export ... from './x.ts'`): exported name → { file, name } of the
 * module that defines it, following barrels inside barrels. null for any other module.
 */
export function barrelExports(file) {
  if (barrels.has(file)) return barrels.get(file);
  barrels.set(file, null); // a cycle ends here as "not a barrel"
  const code = withoutComments(readFileSync(file, 'utf8'));
  if (code.replace(REEXPORT, '').trim() !== '') return null;
  const map = new Map();
  for (const [, typeOnly, what, specifier] of code.matchAll(REEXPORT)) {
    if (typeOnly) continue;
    const target = path.resolve(path.dirname(file), specifier);
    if (!existsSync(target)) return null;
    const inner = barrelExports(target);
    if (what === '*') {
      const names = inner ? [...inner.keys()] : ownExports(target);
      if (names === null) return null;
      for (const name of names) map.set(name, inner?.get(name) ?? { file: target, name });
    } else
      for (const { name, as, type } of listEntries(what))
        if (!type) map.set(as, inner?.get(name) ?? { file: target, name });
  }
  barrels.set(file, map);
  return map;
}

/** The value names a module that is not a barrel exports, or null when they cannot be read for sure. */
function ownExports(file) {
  const code = withoutComments(readFileSync(file, 'utf8'));
  if (/^export\s+\*/m.test(code) || /^export\s+(const|let|var)\s*[{[]/m.test(code) || /^export\s+default\b/m.test(code))
    return null;
  const names = [];
  for (const [, name] of code.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|abstract\s+class|enum)\s+([\w$]+)/gm,
  ))
    names.push(name);
  for (const [, typeOnly, list] of code.matchAll(/^export\s+(type\s+)?(\{[^}]*\})/gm))
    if (!typeOnly) for (const { as, type } of listEntries(list)) if (!type) names.push(as);
  return names;
}

const IMPORT = /^import\s+(\{[^}]*\})\s+from\s+'(\.[^']+)';/gm;

/** `source` (the module at `file`) with its named imports from barrels turned into direct imports. */
export function withoutBarrelImports(file, source) {
  return source.replace(IMPORT, (statement, list, specifier) => {
    const barrel = barrelExports(path.resolve(path.dirname(file), specifier));
    if (!barrel) return statement;
    const direct = new Map(); // module file → entries
    const kept = [];
    for (const entry of listEntries(list)) {
      const found = entry.type ? undefined : barrel.get(entry.name);
      if (found === undefined) {
        kept.push(entry);
        continue;
      }
      if (!direct.has(found.file)) direct.set(found.file, []);
      direct.get(found.file).push(found.name === entry.as ? found.name : `${found.name} as ${entry.as}`);
    }
    const lines = [...direct].map(([module, names]) => {
      let relative = path.relative(path.dirname(file), module);
      if (!relative.startsWith('.')) relative = `./${relative}`;
      return `import { ${names.join(', ')} } from '${relative}';`;
    });
    // Types only (erased): `import type`, since with verbatimModuleSyntax an `import { type T }` stays
    // as an import of the barrel.
    const named = (e) => (e.name === e.as ? e.name : `${e.name} as ${e.as}`);
    if (kept.length > 0 && kept.every((e) => e.type))
      lines.push(`import type { ${kept.map(named).join(', ')} } from '${specifier}';`);
    else if (kept.length > 0)
      lines.push(
        `import { ${kept.map((e) => `${e.type ? 'type ' : ''}${named(e)}`).join(', ')} } from '${specifier}';`,
      );
    // On one line, then as many line breaks as the import had: line numbers (and source maps) stay.
    return lines.join(' ') + '\n'.repeat(statement.split('\n').length - 1);
  });
}
