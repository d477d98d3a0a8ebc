// The diagram parser's trimmed barrel imports (pipeline/site/mermaid-barrel-imports.ts): the installed
// mermaid imports from exactly the barrels trimmed, each trimmed module gives mermaid the very
// functions the whole barrel gives, and a barrel or package that is not of the expected form is
// imported as it is.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { BARRELS, barrelExports, rewriteBarrelImports, trimmedBarrel } from './mermaid-barrel-imports.ts';

const DIST = path.join(path.dirname(createRequire(import.meta.url).resolve('mermaid/package.json')), 'dist');

/** The names each barrel is imported for by mermaid's files (the core and its chunks). */
function mermaidImports(): Map<string, Set<string>> {
  const files = [
    ...readdirSync(DIST).map((name) => path.join(DIST, name)),
    ...readdirSync(path.join(DIST, 'chunks', 'mermaid.core')).map((name) =>
      path.join(DIST, 'chunks', 'mermaid.core', name),
    ),
  ].filter((file) => file.endsWith('.mjs') && !file.endsWith('.min.mjs'));
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    for (const [, list, specifier] of readFileSync(file, 'utf8').matchAll(/^import \{([^}]*)\} from "([^"]+)";$/gm)) {
      if (!(BARRELS as readonly string[]).includes(specifier!)) continue;
      const names = imports.get(specifier!) ?? new Set<string>();
      for (const entry of list!.split(',')) if (entry.trim() !== '') names.add(entry.trim().split(/\s+as\s+/)[0]!);
      imports.set(specifier!, names);
    }
  }
  return imports;
}

test("the installed mermaid imports from both barrels, and each trimmed module gives it the barrel's own functions", async () => {
  const imports = mermaidImports();
  assert.deepEqual([...imports.keys()].sort(), [...BARRELS].sort());
  for (const [barrel, names] of imports) {
    const url = import.meta.resolve(barrel);
    const source = trimmedBarrel(url, [...names].sort());
    assert.ok(source !== null, `${barrel} is not trimmed`);
    assert.equal(source.split('\n').filter((line) => line !== '').length, names.size, source);
    const whole = (await import(barrel)) as Record<string, unknown>;
    const trimmed = (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(trimmed).sort(), [...names].sort());
    for (const name of names) {
      assert.equal(typeof whole[name], 'function', `${barrel} ${name}`);
      assert.equal(trimmed[name], whole[name], `${barrel} ${name}: another function than the barrel's`);
    }
  }
});

test('only the barrels are rewritten in a mermaid file, its bindings kept', () => {
  const source = [
    'import { a } from "./chunk-A.mjs";',
    'import { memoize, merge as deepMerge } from "es-toolkit/compat";',
    'import { getIconData } from "@iconify/utils";',
    'import { x } from "es-toolkit";',
    'import * as all from "@iconify/utils";',
    'const s = \'import { clone } from "es-toolkit/compat";\';',
  ].join('\n');
  assert.equal(
    rewriteBarrelImports(source),
    [
      'import { a } from "./chunk-A.mjs";',
      'import { memoize, merge as deepMerge } from "codelabgen-barrel:es-toolkit/compat?codelabgen-only=memoize,merge";',
      'import { getIconData } from "codelabgen-barrel:@iconify/utils?codelabgen-only=getIconData";',
      'import { x } from "es-toolkit";',
      'import * as all from "@iconify/utils";',
      'const s = \'import { clone } from "es-toolkit/compat";\';',
    ].join('\n'),
  );
  assert.equal(rewriteBarrelImports('import { x } from "es-toolkit";\nimport "@iconify/utils";\n'), null);
});

test('a barrel that is more than imports and one export list, or a package with side effects, is imported whole', () => {
  const good =
    '// a comment\nimport "./setup.mjs";\nimport { a, b } from "./ab.mjs";\nimport { c } from "../c.mjs";\nexport { a, c as d, b };\n';
  assert.deepEqual(
    [...(barrelExports(good) ?? [])],
    [
      ['a', { file: './ab.mjs', local: 'a' }],
      ['d', { file: '../c.mjs', local: 'c' }],
      ['b', { file: './ab.mjs', local: 'b' }],
    ],
  );
  for (const bad of [
    `${good}const x = 1;\n`,
    `${good}export { a };\n`,
    'import { a as b } from "./ab.mjs";\nexport { b };\n',
    'import { a } from "pkg";\nexport { a };\n',
    'import a from "./a.mjs";\nexport { a };\n',
    'export { a } from "./a.mjs";\n',
    'import { a } from "./a.mjs";\n',
  ])
    assert.equal(barrelExports(bad), null, bad);

  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-barrel-'));
  try {
    mkdirSync(path.join(dir, 'lib'));
    writeFileSync(path.join(dir, 'lib', 'index.mjs'), 'import { a } from "./a.mjs";\nexport { a };\n');
    writeFileSync(path.join(dir, 'lib', 'a.mjs'), 'export const a = () => 1;\n');
    const url = pathToFileURL(path.join(dir, 'lib', 'index.mjs')).href;
    const packageJson = (extra: object) =>
      writeFileSync(
        path.join(dir, 'package.json'),
        JSON.stringify({ name: `p${Object.keys(extra).length}`, ...extra }),
      );
    packageJson({ sideEffects: false, version: '1.0.0' });
    assert.equal(trimmedBarrel(url, ['a']), `export { a } from ${JSON.stringify(new URL('./a.mjs', url).href)};\n`);
    assert.equal(trimmedBarrel(url, ['a', 'missing']), null);
    packageJson({});
    assert.equal(trimmedBarrel(`${url}?another`, ['a']), null, 'no "sideEffects": false');
    packageJson({ sideEffects: ['./lib/a.mjs'] });
    assert.equal(trimmedBarrel(`${url}?yet-another`, ['a']), null, 'side effects named');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
