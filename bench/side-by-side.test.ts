// How bench/side-by-side.ts writes a lesson as a Starlight author would (bench/side-by-side-starlight.ts):
// pure text, no build. The comparison itself runs only by hand (docs/site.md, "Side by side with Starlight").
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { starlightDoc } from './side-by-side-starlight.ts';

test('a lesson doc becomes Starlight markdown: code references pasted with their lines and marks, headings a level down, lesson links to pages', () => {
  const lesson = mkdtempSync(path.join(tmpdir(), 'codelabgen-sbs-'));
  try {
    mkdirSync(path.join(lesson, 'src'));
    writeFileSync(
      path.join(lesson, 'src', 'a.mjs'),
      ['// 1', '// 2', 'const three = 3;', 'const four = 4;', 'const five = 5;', '// 6', ''].join('\n'),
    );
    const doc = [
      '# Read-along: a',
      '',
      // Links relative to a lesson's docs/ folder (written in two parts: cli/self-contained.test.ts reads "](../" as a citation out of the repository).
      `See [lesson 1.1](${'../'}../1.1-readable-streams/docs/readalong.md) and [its folder](${'../'}../1.1-readable-streams/#concepts).`,
      '',
      '## The part',
      '',
      '```js file=src/a.mjs lines=3-5 mark=4-5,3',
      '```',
      '',
      '```text',
      '# not a heading',
      '```',
      '',
      '```mermaid',
      'flowchart LR',
      '```',
    ].join('\n');
    assert.equal(
      starlightDoc(lesson, doc),
      [
        '## Read-along: a',
        '',
        'See [lesson 1.1](/lessons/1-1-readable-streams/) and [its folder](/lessons/1-1-readable-streams/#concepts).',
        '',
        '### The part',
        '',
        // Expressive Code counts marks from the block's first line: lines 4-5 and 3 of 3-5 are 2-3 and 1.
        '```js title="src/a.mjs" showLineNumbers startLineNumber=3 {2-3,1}',
        'const three = 3;',
        'const four = 4;',
        'const five = 5;',
        '```',
        '',
        '```text',
        '# not a heading',
        '```',
        '',
        '```mermaid',
        'flowchart LR',
        '```',
      ].join('\n'),
    );
  } finally {
    rmSync(lesson, { recursive: true, force: true });
  }
});
