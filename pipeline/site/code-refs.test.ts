// Unit tests of the pure site helpers: fence splitting, code references, sanitization, trees.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { removeDir, tempDir } from '../../cli/testing.ts';
import { normalizeBase } from './build.ts';
import { checkOut } from './out-folder.ts';
import { codeRefProblems } from './check-refs.ts';
import { splitFences } from './fences.ts';
import { renderMarkdown } from './markdown.ts';
import { renderDoc } from './segments.ts';

const dir = tempDir('codelabgen-refs-');
mkdirSync(path.join(dir, 'src'), { recursive: true });
writeFileSync(path.join(dir, 'src/a.ts'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
after(() => removeDir(dir));

test('splitFences keeps the line of each fence and the prose around it', () => {
  const blocks = splitFences(
    '# T\n\ntext\n\n```ts file=src/a.ts lines=2-3\n```\n\nafter\n~~~mermaid\nflowchart LR\n~~~\n',
  );
  assert.deepEqual(
    blocks.map((b) => (b.kind === 'fence' ? `fence:${b.fence.lang}:${b.fence.line}` : `text:${b.line}`)),
    ['text:1', 'fence:ts:5', 'text:7', 'fence:mermaid:9'],
  );
});

test('a good reference gives the exact lines; marks stay in range', () => {
  const doc = renderDoc('```ts file=src/a.ts lines=4-6 mark=5\n```\n', {
    lesson: '1.1',
    lessonDir: dir,
    doc: 'docs/readalong.md',
  });
  assert.deepEqual(doc.problems, []);
  const code = doc.segments[0];
  assert.ok(code?.kind === 'code');
  assert.equal(code.code, 'line 4\nline 5\nline 6');
  assert.deepEqual(code.mark, [5]);
});

test('bad references are named with lesson, doc and line', () => {
  const text =
    'x\n\n```ts file=src/a.ts lines=9-11\n```\n\n```ts file=../etc/passwd\n```\n\n```ts file=src/a.ts ' +
    'lines=1-2\nnot empty\n```\n\n```ts file=src/nope.ts\n```\n';
  assert.deepEqual(codeRefProblems('2.1', dir, 'docs/notes.md', text), [
    'lesson 2.1 docs/notes.md:3: code reference file=src/a.ts lines=9-11: the file has only 10 lines',
    'lesson 2.1 docs/notes.md:6: code reference file=../etc/passwd: the path must be relative to the lesson folder, without ".."',
    'lesson 2.1 docs/notes.md:9: code reference file=src/a.ts lines=1-2: the block must be empty (the site fills it from the file)',
    'lesson 2.1 docs/notes.md:13: code reference file=src/nope.ts: no such file in the lesson folder',
  ]);
});

test('markdown raw HTML is sanitized and external links get rel=noopener', () => {
  const html = renderMarkdown(
    '<script>alert(1)</script>\n\n<img src="a.png" onerror="alert(2)">\n\n<a href="javascript:alert(3)">x</a> ' +
      '[y](https://e.org) <iframe src="https://e.org"></iframe> <div onclick="z()">d</div>',
  );
  assert.doesNotMatch(html, /script|onerror|onclick|javascript:|iframe|alert/i);
  assert.match(html, /<a href="https:\/\/e.org" rel="noopener noreferrer" target="_blank">y<\/a>/);
  assert.match(html, /<img src="a.png" \/>/);
});

test('bases are normalized and an --out inside the course is refused', () => {
  assert.equal(normalizeBase(''), '/');
  assert.equal(normalizeBase('my-course'), '/my-course/');
  assert.equal(normalizeBase('/a/b//'), '/a/b/');
  assert.throws(() => normalizeBase('/x"y/'), /--base/);
  assert.throws(() => checkOut(dir, path.join(dir, 'out/site')), /inside the course directory/);
  assert.equal(checkOut(dir, path.join(dir, '..', 'elsewhere-out')), path.join(path.dirname(dir), 'elsewhere-out'));
});
