// Readalong steps: which prose goes with which code reference (site/lib/steps.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anchorHeadings } from './headings.ts';
import type { SegmentView } from './page-schema.ts';
import { readalongSteps, splitLead, topLevelHeadings } from './steps.ts';

const html = (text: string): SegmentView => ({ kind: 'html', html: anchorHeadings(text, new Set()).html });
const ref = (file: string, startLine = 1): SegmentView => ({
  kind: 'code',
  code: 'x',
  lang: 'js',
  meta: '',
  title: file,
  startLine,
  mark: [],
});
const plain: SegmentView = {
  kind: 'code',
  code: 'npm test',
  lang: 'sh',
  meta: '',
  title: null,
  startLine: null,
  mark: [],
};
/** The visible text of segments, tags dropped, for compact assertions. */
const text = (segments: SegmentView[]) =>
  segments
    .map((s) =>
      s.kind === 'html'
        ? s.html
            .replace(/<a class="heading-anchor"[\s\S]*?<\/a>/g, '')
            .replace(/<[^>]+>/g, ' ')
            .replace(/\s+/g, ' ')
            .trim()
        : s.kind === 'code'
          ? `[${s.title ?? s.lang}]`
          : `[${s.kind}]`,
    )
    .filter(Boolean);

test('a step is a code reference, the heading right before it and the prose after it', () => {
  const parts = readalongSteps([
    html('<p>Intro.</p><h2>The source</h2>'),
    ref('src/a.js'),
    html('<p>Explains a.</p>'),
    ref('src/a.js', 16),
    html('<p>Explains a again.</p><h2>Consuming</h2><p>Before b.</p>'),
    ref('src/b.js'),
    html('<p>Explains b.</p><h2>Summary</h2><p>The end.</p>'),
  ]);
  assert.deepEqual(text(parts.intro), ['Intro.']);
  assert.deepEqual(
    parts.steps.map((s) => ({ lead: text(s.lead), code: s.code.title, text: text(s.text) })),
    [
      { lead: ['The source'], code: 'src/a.js', text: ['Explains a.'] },
      { lead: [], code: 'src/a.js', text: ['Explains a again.'] },
      { lead: ['Consuming Before b.'], code: 'src/b.js', text: ['Explains b. Summary The end.'] },
    ],
  );
  assert.equal(parts.steps[1]!.code.startLine, 16);
});

test('no code reference: no steps, the whole doc is the intro', () => {
  const segments = [html('<h2>A</h2><p>Prose.</p>'), plain];
  assert.deepEqual(readalongSteps(segments), { intro: segments, steps: [] });
});

test('plain code blocks, diagrams and errors stay in the prose of their step', () => {
  const diagram: SegmentView = { kind: 'error', message: 'bad ref' };
  const parts = readalongSteps([
    ref('src/a.js'),
    html('<p>Run it:</p>'),
    plain,
    diagram,
    html('<h3>Next</h3>'),
    plain,
    ref('src/b.js'),
  ]);
  assert.deepEqual(text(parts.intro), []);
  assert.deepEqual(
    parts.steps.map((s) => [text(s.lead), text(s.text)]),
    [
      [[], ['Run it:', '[sh]', '[error]']],
      [['Next', '[sh]'], []],
    ],
  );
});

test('a run of headings leads together; the last heading wins over earlier sections', () => {
  const { before, lead } = splitLead([html('<h2>Part 1</h2><p>Words.</p><h2>Part 2</h2>\n<h3>Detail</h3><p>Why.</p>')]);
  assert.deepEqual(text(before), ['Part 1 Words.']);
  assert.deepEqual(text(lead), ['Part 2 Detail Why.']);
});

test('headings nested in a blockquote or list do not split the prose', () => {
  const nested = '<p>A.</p><blockquote><h2>Quoted</h2><p>q</p></blockquote><ul><li><h3>Listed</h3></li></ul><p>B.</p>';
  assert.deepEqual(topLevelHeadings(nested), []);
  assert.deepEqual(splitLead([html(nested)]).lead, []);
  const top = '<p>x<br>y<img src="a.png" alt=""></p><h4 id="z">Top</h4>';
  assert.deepEqual(topLevelHeadings(top), [{ start: top.indexOf('<h4'), end: top.length }]);
});
