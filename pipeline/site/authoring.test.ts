// Unit tests of doc authoring (docs/site.md "Authoring"): asides, fenced blocks nested in lists,
// blockquotes and asides (segments and doc lines), relative links between lessons, doc images.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { removeDir, tempDir } from '../../cli/testing.ts';
import { codeRefProblems } from './check-refs.ts';
import type { DocLinks } from './doc-links.ts';
import { docFences } from './doc-tokens.ts';
import { renderMarkdown } from './markdown.ts';
import { IMAGE_PLACEHOLDER, renderDoc, type Segment } from './segments.ts';

// A course folder: module 1 with lessons 1.1 (readalong + notes) and 1.2 (readalong, a code file, an image).
const course = tempDir('codelabgen-authoring-');
const outside = tempDir('codelabgen-authoring-outside-');
after(() => {
  removeDir(course);
  removeDir(outside);
});
const lesson11 = path.join(course, '1-basics', '1.1-intro');
const lesson12 = path.join(course, '1-basics', '1.2-more');
for (const dir of [path.join(lesson11, 'docs'), path.join(lesson12, 'docs', 'img'), path.join(lesson12, 'src')])
  mkdirSync(dir, { recursive: true });
writeFileSync(path.join(lesson11, 'docs', 'readalong.md'), '# R\n');
writeFileSync(path.join(lesson11, 'docs', 'notes.md'), '# N\n');
writeFileSync(path.join(lesson12, 'docs', 'notes.md'), '# N\n');
writeFileSync(path.join(lesson12, 'src', 'a.ts'), 'one\ntwo\nthree\n');
writeFileSync(path.join(lesson12, 'docs', 'img', 'flow.png'), 'not really a png, the key is its hash');
writeFileSync(path.join(outside, 'secret.png'), 'outside');
symlinkSync(path.join(outside, 'secret.png'), path.join(lesson12, 'docs', 'img', 'link.png'));

/** `../` n times (written out, such paths would read as citations of files outside the repository). */
const up = (n: number) => '../'.repeat(n);

function links(included11 = true): DocLinks {
  return {
    courseRoot: course,
    lessons: [
      { id: '1.1', slug: 'intro', dir: '1-basics/1.1-intro', included: included11 },
      { id: '1.2', slug: 'more', dir: '1-basics/1.2-more', included: true },
    ],
    href: (lesson, anchor) => `/base/lessons/${lesson.id}-${lesson.slug}/${anchor ? `#${anchor}` : ''}`,
  };
}

function render(text: string, options: { doc?: string; included11?: boolean } = {}) {
  return renderDoc(text, {
    lesson: '1.2',
    lessonDir: lesson12,
    doc: options.doc ?? 'docs/readalong.md',
    links: links(options.included11),
  });
}

/** Kinds of segments, a group as `group(part kinds)`. */
function kinds(segments: Segment[]): string[] {
  return segments.map((s) => (s.kind === 'group' ? `group(${s.parts.map((p) => p.kind).join(',')})` : s.kind));
}

test(':::note|tip|caution|danger and GitHub alerts render as labelled asides, titles escaped', () => {
  const html = renderMarkdown(
    ':::tip\nShort *tip*.\n:::\n\n:::caution[Mind <the> gap]\nx\n:::\n\n:::danger Do not\ny\n:::\n\n> ' +
      '[!IMPORTANT]\n> Read this.\n\n> [!CAUTION]\n> Careful.\n\n:::unknown\nz\n:::\n',
  );
  assert.equal(
    html,
    [
      '<aside class="callout callout-tip" aria-label="Tip"><p class="callout-title" ' +
        'aria-hidden="true">Tip</p><div class="callout-body"><p>Short <em>tip</em>.</p>\n</div></aside>',
      '<aside class="callout callout-caution" aria-label="Mind &lt;the&gt; gap"><p class="callout-title" ' +
        'aria-hidden="true">Mind &lt;the&gt; gap</p><div class="callout-body"><p>x</p>\n</div></aside>',
      '<aside class="callout callout-danger" aria-label="Do not"><p class="callout-title" ' +
        'aria-hidden="true">Do not</p><div class="callout-body"><p>y</p>\n</div></aside>',
      '<aside class="callout callout-note" aria-label="Important"><p class="callout-title" ' +
        'aria-hidden="true">Important</p><div class="callout-body"><p>Read this.</p>\n</div></aside>',
      '<aside class="callout callout-danger" aria-label="Caution"><p class="callout-title" ' +
        'aria-hidden="true">Caution</p><div class="callout-body"><p>Careful.</p>\n</div></aside>',
      '<p>:::unknown\nz\n:::</p>\n',
    ].join('\n'),
  );
});

test('asides nest, skip fenced ::: lines, and run to the end of the doc when never closed', () => {
  const html = renderMarkdown(
    ':::note Outer\n:::tip\ninner\n:::\n```txt\n:::\n```\nstill outer\n:::\n\nafter\n\n:::danger\nunclosed\n',
  );
  assert.match(
    html,
    new RegExp(
      '^<aside class="callout callout-note" aria-label="Outer">.*<aside class="callout callout-tip" ' +
        String.raw`aria-label="Tip">.*<p>inner<\/p>\n<\/div><\/aside>\n<pre><code ` +
        String.raw`class="language-txt">:::\n<\/code><\/pre>\n<p>still outer<\/p>\n<\/div><\/aside>\n<p>after<\/p>\n<aside ` +
        String.raw`class="callout callout-danger" aria-label="Danger">.*<p>unclosed<\/p>`,
      's',
    ),
  );
});

test('the sanitizer keeps only the aside classes and attributes it emits', () => {
  const html = renderMarkdown(
    '<aside class="callout callout-tip evil" aria-label="x" onclick="y()" style="color:red"><p ' +
      'class="callout-title other" aria-hidden="true">t</p><div class="callout-body" ' +
      'data-x="1">b</div></aside>\n\n<span class="callout">s</span>\n\n```js\ncode\n```\n',
  );
  assert.equal(
    html,
    '<aside class="callout callout-tip" aria-label="x"><p class="callout-title" aria-hidden="true">t</p><div ' +
      'class="callout-body">b</div></aside><p><span>s</span></p>\n<pre><code ' +
      'class="language-js">code\n</code></pre>\n',
  );
});

const NESTED = [
  '# Title', //                          1
  '',
  '```ts file=src/a.ts lines=1', //      3: top-level reference
  '```',
  '',
  '1. First step', //                    6
  '',
  '   ```ts file=src/a.ts lines=2-3', // 8: in a list item
  '   ```',
  '2. Second', //                        10
  '   - nested', //                      11
  '',
  '     ```mermaid', //                  13: in a nested list
  '     flowchart LR',
  '     ```',
  '',
  '> quoted', //                         17
  '> ```ts file=src/a.ts lines=7', //    18: in a blockquote, bad range
  '> ```',
  '',
  ':::note Look', //                     21
  'text',
  '',
  '```ts file=src/nope.ts', //           24: in an aside, missing file
  '```',
  ':::',
  '',
  '> [!TIP]', //                         28
  '> ```js file=src/a.ts lines=1-9', //  29: in a GitHub alert, past the end
  '> ```',
  '',
].join('\n');

test('fences nested in lists, blockquotes and asides become group parts; top-level ones stay top-level', () => {
  const doc = render(NESTED);
  assert.equal(doc.title, 'Title');
  assert.deepEqual(kinds(doc.segments), [
    'code',
    'group(html,code,html,diagram,html)',
    'group(html,error,html)',
    'group(html,error,html)',
    'group(html,error,html)',
  ]);
  const [top, list] = doc.segments;
  assert.ok(
    top?.kind === 'code' && top.title === 'src/a.ts' && top.code === 'one',
    'the top-level reference is a top-level code segment',
  );
  assert.ok(list?.kind === 'group');
  const code = list.parts[1];
  assert.ok(code?.kind === 'code');
  assert.deepEqual([code.code, code.title, code.startLine], ['two\nthree', 'src/a.ts', 2]);
  // The html parts are pieces of one list: together they are balanced.
  const html = list.parts.map((p) => (p.kind === 'html' ? p.html : '')).join('');
  for (const tag of ['ol', 'ul', 'li'])
    assert.equal(html.split(`<${tag}>`).length, html.split(`</${tag}>`).length, tag);
  assert.match(list.parts[0]?.kind === 'html' ? list.parts[0].html : '', /^<ol>\n<li><p>First step<\/p>/);
  assert.deepEqual(
    doc.diagrams.map((d) => d.label),
    ['docs/readalong.md:13'],
  );
});

test('problems with nested fences name the doc line of the fence, in the site and in check', () => {
  const expected = [
    'lesson 1.2 docs/readalong.md:18: code reference file=src/a.ts lines=7-7: the file has only 3 lines',
    'lesson 1.2 docs/readalong.md:24: code reference file=src/nope.ts: no such file in the lesson folder',
    'lesson 1.2 docs/readalong.md:29: code reference file=src/a.ts lines=1-9: the file has only 3 lines',
  ];
  assert.deepEqual(render(NESTED).problems, expected);
  assert.deepEqual(codeRefProblems('1.2', lesson12, 'docs/readalong.md', NESTED), expected);
  assert.deepEqual(
    docFences(NESTED).map((f) => `${f.lang}:${f.line}`),
    ['ts:3', 'ts:8', 'mermaid:13', 'ts:18', 'ts:24', 'js:29'],
  );
});

test('relative links to a lesson folder or doc become lesson page URLs; others are left alone', () => {
  const doc = render(
    [
      '[folder](../../1.1-intro) [slash](../../1.1-intro/) [readalong](../../1.1-intro/docs/readalong.md)',
      '[notes](../../1.1-intro/docs/notes.md) [anchor](../../1.1-intro/docs/notes.md#why-it-works) [own notes](notes.md)',
      '[web](https://nodejs.org/api/) [here](#a-heading) [mail](mailto:a@b.c) [root](/glossary/)',
    ].join('\n'),
  );
  assert.deepEqual(doc.problems, []);
  const html = doc.segments[0]?.kind === 'html' ? doc.segments[0].html : '';
  assert.deepEqual(
    [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]),
    [
      '/base/lessons/1.1-intro/',
      '/base/lessons/1.1-intro/',
      '/base/lessons/1.1-intro/#readalong',
      '/base/lessons/1.1-intro/#notes',
      '/base/lessons/1.1-intro/#why-it-works',
      '/base/lessons/1.2-more/#notes',
      'https://nodejs.org/api/',
      '#a-heading',
      'mailto:a@b.c',
      '/glossary/',
    ],
  );
});

test('a link to a lesson without a page in this build keeps its words and loses the link', () => {
  const doc = render('See [the intro](../../1.1-intro/) first.\n', { included11: false });
  assert.deepEqual(doc.problems, []);
  assert.deepEqual(doc.segments, [{ kind: 'html', html: '<p>See the intro first.</p>\n' }]);
});

test('broken relative links and images are problems naming lesson, doc and line', () => {
  const text = [
    'Intro.', //                                        1
    '',
    '- a [not a doc](../../1.1-intro/docs/data.json)', // 3
    '- b [no lesson](../../9.9-nope/docs/notes.md)', //   4
    '',
    `> [outside](${up(4)}etc/passwd) and`, //            6
    '> ![gone](img/nope.png)', //                         7
    '',
    ':::tip', //                                          9
    `![up](${up(3)}etc/passwd.png) ![link](img/link.png)`, // 10
    ':::',
    '',
    '| a | b |', //                                      13
    '|---|---|',
    '| [code](../src/a.ts) | ![text](../src/a.ts) |', // 15
    '',
    '[module](../../) ![remote](https://example.org/x.png)', // 17
  ].join('\n');
  const doc = render(text, { doc: 'docs/notes.md' });
  assert.deepEqual(doc.problems, [
    'lesson 1.2 docs/notes.md:3: link ../../1.1-intro/docs/data.json: docs/data.json of lesson 1.1 has no ' +
      'page of its own (link a lesson folder or its docs/readalong.md or docs/notes.md; show code with a code ' +
      'reference)',
    'lesson 1.2 docs/notes.md:4: link ../../9.9-nope/docs/notes.md: no such lesson folder or doc in the ' +
      'course (link a lesson folder or its docs/readalong.md or docs/notes.md)',
    `lesson 1.2 docs/notes.md:6: link ${up(4)}etc/passwd: points outside the lesson folders of the course`,
    'lesson 1.2 docs/notes.md:7: image img/nope.png: no such file in the lesson folder (looked for docs/img/nope.png)',
    `lesson 1.2 docs/notes.md:10: image ${up(3)}etc/passwd.png: points outside the lesson folder; images must be files inside it`,
    "lesson 1.2 docs/notes.md:10: image img/link.png: resolves outside the lesson folder (through a symbolic link); only the lesson's own files are published",
    'lesson 1.2 docs/notes.md:15: link ../src/a.ts: src/a.ts of lesson 1.2 has no page of its own (link a ' +
      'lesson folder or its docs/readalong.md or docs/notes.md; show code with a code reference)',
    'lesson 1.2 docs/notes.md:15: image ../src/a.ts: .ts is not an image format the site can optimize (png, jpg, jpeg, webp, gif, avif, svg, tiff)',
    'lesson 1.2 docs/notes.md:17: link ../../: is not a lesson folder (link a lesson folder or its docs/readalong.md or docs/notes.md)',
  ]);
  assert.doesNotMatch(JSON.stringify(doc), /outside-secret|"outside"/);
});

test('a doc image becomes a placeholder keyed by its content; remote images stay as they are', () => {
  const doc = render(
    '![Flow](img/flow.png "The flow") ![again](./img/flow.png)\n\n![remote](https://example.org/x.png)\n',
  );
  assert.deepEqual(doc.problems, []);
  assert.equal(doc.images.length, 1, 'the same file once');
  const [image] = doc.images;
  assert.ok(image);
  assert.match(image.key, /^[0-9a-f]{16}$/);
  assert.equal(image.path, path.join(lesson12, 'docs', 'img', 'flow.png'));
  const html = doc.segments.map((s) => (s.kind === 'html' ? s.html : '')).join('');
  assert.equal(
    html,
    `<p><img src="${IMAGE_PLACEHOLDER}${image.key}" alt="Flow" title="The flow" loading="lazy" ` +
      `decoding="async" /> <img src="${IMAGE_PLACEHOLDER}${image.key}" alt="again" loading="lazy" ` +
      `decoding="async" /></p>\n<p><img src="https://example.org/x.png" alt="remote" loading="lazy" ` +
      `decoding="async" /></p>\n`,
  );
});
