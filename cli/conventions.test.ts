// Doc conventions from the CLI: `codelabgen conventions` prints the text docs/conventions.md is
// generated from (drift test), `check` warns about failed-looking references, and `state set
// <id> readalong` refuses a readalong without a code reference.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { lintDoc, renderConventions, renderConventionsDoc } from '../pipeline/authoring/conventions.ts';
import { CONVENTIONS_DOC } from '../scripts/gen-docs.ts';
import { courseWithLessons, LESSON_DIRS, ok, refused, write } from './protocol-fixture.ts';
import { cli, removeDir, scratchDir } from './testing.ts';

test('docs/conventions.md is generated from pipeline/authoring/conventions.ts (run: npm run docs)', () => {
  assert.equal(
    readFileSync(CONVENTIONS_DOC, 'utf8'),
    renderConventionsDoc(),
    'docs/conventions.md is stale: run "npm run docs"',
  );
});

test('codelabgen conventions prints a topic (or all) with examples; an unknown topic is refused', () => {
  const dir = scratchDir();
  const readalong = cli(['conventions', 'readalong'], { cwd: dir });
  assert.equal(readalong.code, 0, readalong.stderr);
  assert.equal(readalong.stdout, `${renderConventions('readalong').trimEnd()}\n`);
  assert.match(readalong.stdout, /```ts file=src\/line-splitter\.ts lines=10-24\n```/);
  const all = cli(['conventions'], { cwd: dir });
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(all.stdout.match(/^## .*$/gm), [
    '## Readalong code references',
    '## Diagrams',
    '## Review files',
    '## Notes',
  ]);
  refused(
    dir,
    ['conventions', 'readalongs'],
    /^error: conventions: unknown topic "readalongs"; topics: readalong, diagrams, review, notes$/,
  );
});

test('lintDoc counts references and names guesses that are not references', () => {
  const text =
    '# R\n\n```ts file=src/a.ts lines=1-2\n```\n\n```ts title=src/a.ts\n```\n\n```ts {5-10}\n```\n\n```ts ' +
    'src/a.ts:5-10\n```\n\n```ts lines=5-10\n```\n\n<!-- file: src/a.ts -->\n\n```ts\nconst plain = 1;\n```\n';
  const lint = lintDoc(text);
  assert.equal(lint.references, 1);
  assert.deepEqual(
    lint.suspicious.map((line) =>
      line.replace(/ looks like.*\((.*)\)$/, ': $1').replace(/: an HTML comment.*/, ': comment'),
    ),
    [
      'line 6: fence "ts title=src/a.ts": title= is not file=',
      'line 9: fence "ts {5-10}": {N-M} is not a range here: use file=... lines=N-M',
      'line 12: fence "ts src/a.ts:5-10": path:N-M is not a reference: use file=PATH lines=N-M',
      'line 15: fence "ts lines=5-10": lines= needs file=',
      'line 18: comment',
    ],
  );
});

test('state set <id> readalong refuses a readalong with no code reference; check warns (exit 0) about one and about failed-looking fences', () => {
  const root = courseWithLessons({ '1.1': 'verified' }, { register: true });
  try {
    const doc = `${LESSON_DIRS['1.1']}/docs/readalong.md`;
    write(root, doc, '# Read along\n\n```js title=main.mjs\n```\n');
    refused(
      root,
      ['state', 'set', '1.1', 'readalong'],
      new RegExp(
        String.raw`^error: lesson 1\.1: cannot move to readalong: 1-basics\/1\.1-readable\/docs\/readalong\.md: no code ` +
          "reference; a readalong shows the lesson's code with an empty fence like ```ts file=src\\/x\\.ts " +
          String.raw`lines=10-24 \(see: codelabgen conventions readalong\)$`,
      ),
    );
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.match(
      check.stdout,
      new RegExp(
        String.raw`^warn doc conventions \(code references\)\n {5}- warning: lesson 1\.1 docs\/readalong\.md: no code ` +
          'reference \\(an empty fence like ```ts file=src\\/x\\.ts lines=10-24\\); see: codelabgen conventions ' +
          String.raw`readalong\n {5}- warning: lesson 1\.1 docs\/readalong\.md: line 3: fence "js title=main\.mjs" looks ` +
          String.raw`like a code reference but is not one \(title= is not file=\); see: codelabgen conventions readalong$`,
        'm',
      ),
    );
    write(root, doc, '# Read along\n\n```js file=main.mjs lines=1\n```\n');
    ok(root, 'state', 'set', '1.1', 'readalong');
    assert.match(ok(root, 'check'), /^ok {3}doc conventions \(code references\)$/m);
  } finally {
    removeDir(path.dirname(root));
  }
});
