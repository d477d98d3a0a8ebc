// Titles with inline code in the page and as plain text (site/lib/inline.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameSegments, plainTitle, sectionTocTitle, titleHtml, tocHtml } from './inline.ts';

test('inline code in a title becomes <code>, the rest is escaped', () => {
  assert.equal(
    titleHtml('Read-along: `pipeline()`, errors and cleanup'),
    'Read-along: <code>pipeline()</code>, errors and cleanup',
  );
  assert.equal(titleHtml('`a<b>` & <i>'), '<code>a&#60;b&#62;</code> &#38; &#60;i&#62;');
  assert.equal(titleHtml('`` a`b ``'), '<code>a`b</code>');
  assert.equal(titleHtml('an unclosed ` tick'), 'an unclosed ` tick');
});

test('plain text drops the backticks, keeps the code', () => {
  assert.equal(
    plainTitle('Read-along: `pipeline()`, errors and cleanup'),
    'Read-along: pipeline(), errors and cleanup',
  );
  assert.equal(plainTitle('`` a`b `` and `c`'), 'a`b and c');
  assert.equal(plainTitle('no code'), 'no code');
});

test('a TOC entry keeps code and emphasis of a heading, not its links', () => {
  assert.equal(
    tocHtml('<code class="x">drain</code> and <a href="/y">more <em>here</em></a>'),
    '<code>drain</code> and more <em>here</em>',
  );
});

test('"On this page" does not repeat the lesson title in a doc\'s title', () => {
  assert.equal(sectionTocTitle('Notes: `pipeline()`, errors and cleanup', 'pipeline(), errors and cleanup'), 'Notes');
  assert.equal(sectionTocTitle('Read-along: a counter stream', 'Readable streams'), 'Read-along: a counter stream');
  assert.equal(sectionTocTitle('Notes', 'Readable streams'), 'Notes');
});

test('a heading name for search results: plain pieces and code pieces, entities decoded', () => {
  assert.equal(
    JSON.stringify(
      nameSegments(tocHtml('Notes: <code>a &#60; b</code> and <em>&amp;</em> <code>&#39;drain&#39;</code>')),
    ),
    JSON.stringify(['Notes: ', 'a < b', ' and & ', "'drain'", '']),
  );
  assert.deepEqual(nameSegments('Pitfalls'), ['Pitfalls']);
});
