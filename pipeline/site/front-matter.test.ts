// Front matter of lesson docs (pipeline/site/front-matter.ts): the fields, the kept line numbers, and
// each broken block named by its doc line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitFrontMatter } from './front-matter.ts';
import { renderDoc } from './segments.ts';

test("title and description are read; the block's lines stay, empty", () => {
  const split = splitFrontMatter(
    '---\ntitle: "Notes: `pipe()`"\ndescription: What pipe() leaves to you\n---\n\n## First\n',
  );
  assert.deepEqual(split.fields, { title: 'Notes: `pipe()`', description: 'What pipe() leaves to you' });
  assert.deepEqual(split.problems, []);
  assert.equal(split.text, '\n\n\n\n\n## First\n');
  assert.deepEqual(
    splitFrontMatter('# Title\n\n---\n\ntext\n'),
    { text: '# Title\n\n---\n\ntext\n', fields: { title: null, description: null }, problems: [] },
    'a later --- is a rule',
  );
});

test('a broken block is a problem on its line', () => {
  assert.deepEqual(splitFrontMatter('---\ntitle: x\n\n## Body\n').problems, [
    {
      line: 1,
      message: 'front matter: the "---" on line 1 is never closed; end the block with a "---" line (or remove it)',
    },
  ]);
  const bad = splitFrontMatter('---\ntitle: fine\ndescription: [unclosed\n---\ntext\n');
  assert.equal(bad.problems.length, 1);
  assert.equal(bad.problems[0]!.line, 3);
  assert.match(bad.problems[0]!.message, /^front matter: invalid YAML: /);
  assert.deepEqual(splitFrontMatter('---\ntitle: ok\ntittle: typo\n---\n').problems, [
    { line: 3, message: 'front matter: unknown field "tittle"; the fields are title and description' },
  ]);
  assert.deepEqual(splitFrontMatter('---\ntitle: [1, 2]\n---\n').problems, [
    { line: 2, message: 'front matter: title must be a line of text' },
  ]);
  assert.deepEqual(splitFrontMatter('---\n- a\n---\n').problems, [
    { line: 2, message: 'front matter: expected "title: ..." and "description: ..." lines' },
  ]);
});

test('a doc with front matter renders its body only: the title from the block, no rule, no "title:" heading', () => {
  const doc = renderDoc(
    '---\ntitle: Notes on `pipe()`\ndescription: What it leaves to you\n---\n\n## Concepts\n\nText.\n',
    { lesson: '1.1', lessonDir: '/nonexistent', doc: 'docs/notes.md' },
  );
  assert.equal(doc.title, 'Notes on `pipe()`');
  assert.equal(doc.description, 'What it leaves to you');
  assert.deepEqual(doc.problems, []);
  const html = doc.segments.map((s) => (s.kind === 'html' ? s.html : '')).join('');
  assert.doesNotMatch(html, /<hr|title:|description:/);
  assert.match(html, /<h3>Concepts<\/h3>/); // a doc's sections sit under its own h2
  const broken = renderDoc('---\ntitle: x\n', { lesson: '1.1', lessonDir: '/nonexistent', doc: 'docs/notes.md' });
  assert.deepEqual(broken.problems, [
    'lesson 1.1 docs/notes.md:1: front matter: the "---" on line 1 is never closed; end the block with a "---" line (or remove it)',
  ]);
  assert.deepEqual(broken.segments[0], { kind: 'error', message: broken.problems[0] });
});
