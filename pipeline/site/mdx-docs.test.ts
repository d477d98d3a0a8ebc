// Unit tests of the .mdx reader (pipeline/site/mdx-docs.ts): what an opted-in .mdx doc may hold,
// and every problem named by lesson, doc and line before a build starts.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { removeDir, tempDir } from '../../cli/testing.ts';
import { literalString, readMdxDoc } from './mdx-docs.ts';
import { diagramHash } from './segments.ts';

const dir = tempDir('codelabgen-mdx-');
mkdirSync(path.join(dir, 'src'), { recursive: true });
writeFileSync(path.join(dir, 'src/a.ts'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
after(() => removeDir(dir));
const ctx = { lesson: '1.1', lessonDir: dir, doc: 'docs/readalong.mdx' };

test('a good doc: title, references, diagrams, no problems', () => {
  const text = [
    '# The title',
    '',
    "import Extra from './extra.astro';",
    'export const n = 2;',
    '',
    'Some {n} words here.',
    '',
    '<CodeRef file="src/a.ts" lines="2-3" mark="3" />',
    '',
    '<Tabs>',
    '  <TabItem label="one">A</TabItem>',
    '</Tabs>',
    '',
    '<Aside type="caution" title="Careful">Text</Aside>',
    '',
    '<Diagram title="Flow" code={`flowchart LR',
    '  a --> b`} />',
    '',
    '<Extra />',
  ].join('\n');
  const doc = readMdxDoc(text, ctx);
  assert.deepEqual(doc.problems, []);
  assert.equal(doc.title, 'The title');
  assert.equal(doc.references, 1);
  assert.deepEqual(
    doc.diagrams.map((d) => [d.label, d.title, d.lesson]),
    [['docs/readalong.mdx:16', 'Flow', '1.1']],
  );
  assert.equal(doc.diagrams[0]?.hash, diagramHash(doc.diagrams[0]?.source ?? ''));
  assert.match(doc.diagrams[0]?.source ?? '', /^flowchart LR\n\s*a --> b$/);
});

test('every problem names lesson, doc and line', () => {
  const text = [
    '<CodeRef file="src/missing.ts" />', // 1
    '',
    '<CodeRef file="src/a.ts" lines="9-12" />', // 3
    '',
    '```ts file=src/a.ts lines=1-2', // 5
    '```',
    '',
    '```mermaid', // 8
    'flowchart LR',
    '```',
    '',
    '<Callout>hi</Callout>', // 12
    '',
    '<Aside type="warning">x</Aside>', // 14
    '',
    '# Late title', // 16
    '',
    '<Diagram code={`flowchart ${dir}`} />', // 18
    '',
    '<TabItem>no label</TabItem>', // 20
  ].join('\n');
  assert.deepEqual(readMdxDoc(text, ctx).problems, [
    'lesson 1.1 docs/readalong.mdx:1: code reference file=src/missing.ts: no such file in the lesson folder',
    'lesson 1.1 docs/readalong.mdx:3: code reference file=src/a.ts lines=9-12: the file has only 10 lines',
    'lesson 1.1 docs/readalong.mdx:5: in .mdx docs a code reference is <CodeRef file="..." lines="..." />, not a fence with file=',
    'lesson 1.1 docs/readalong.mdx:8: in .mdx docs a diagram is <Diagram code={`...`} />, not a mermaid fence',
    'lesson 1.1 docs/readalong.mdx:12: unknown component <Callout>; the built-in ones are <CodeRef>, <Aside>, ' +
      '<Tabs>, <TabItem>, <Steps>, <Diagram>, <FileTree> (or import it)',
    'lesson 1.1 docs/readalong.mdx:14: <Aside type="warning">: the type is one of note, tip, caution, danger',
    'lesson 1.1 docs/readalong.mdx:16: a "# " heading is the doc\'s title and only allowed as its first line; use "## " for sections',
    'lesson 1.1 docs/readalong.mdx:18: <Diagram> needs its mermaid source as code={`...`} or code="..." (a literal, no ${...})',
    'lesson 1.1 docs/readalong.mdx:20: <TabItem> needs label="..." (a string)',
  ]);
});

test('an MDX syntax error is one problem with its line', () => {
  assert.deepEqual(
    readMdxDoc('Fine.\n\n<Tabs\n\nbroken', ctx).problems.map((p) =>
      p.replace(/: MDX syntax error: .*/, ': MDX syntax error'),
    ),
    ['lesson 1.1 docs/readalong.mdx:3: MDX syntax error'],
  );
});

test('literalString reads string and template literals, not expressions', () => {
  assert.equal(literalString('"a\\"b"'), 'a"b');
  assert.equal(literalString("'x\\ny'"), 'x\ny');
  assert.equal(literalString('`a\nb \\` c`'), 'a\nb ` c');
  assert.equal(literalString('`a ${b}`'), null);
  assert.equal(literalString('code + 1'), null);
  assert.equal(literalString('"a" + "b"'), null);
});
