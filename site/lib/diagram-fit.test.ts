// Diagram sizing and names (site/lib/diagram-fit.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagramName, labelPx, minDiagramWidth } from './diagram-fit.ts';

const flow =
  '<svg id="m1" width="100%" class="cgm-a flowchart" style="max-width: 1400px;" viewBox="4 4 1400 222.75" ' +
  'role="graphics-document document"><g><foreignObject><div><span ' +
  'class="nodeLabel"><p>createReadStream(input)</p></span></div></foreignObject><span class="nodeLabel"><p>a ' +
  '&amp; b</p></span><span class="nodeLabel"><p>third</p></span><span ' +
  'class="nodeLabel"><p>fourth</p></span></g></svg>';
const styles = [
  {
    name: 'cgm-a',
    css: ':is(.cgm-a,#_){font-family:system-ui;font-size:16px;fill:red;}:is(.cgm-a,#_) .x{font-size:10px}',
  },
  { name: 'cgm-b', css: ':is(.cgm-b,#_){font-size:8px}' },
];

test('a diagram is never narrower than what keeps its labels at 14 px', () => {
  assert.equal(labelPx(flow, styles), 16);
  assert.equal(minDiagramWidth(flow, styles), 1225); // 1400 × 14 / 16
  const own =
    '<svg id="m2" viewBox="-50 -10 800 991"><style>#m2{font-family:x;font-size:20px;}#m2 .t{font-size:9px}</style></svg>';
  assert.equal(minDiagramWidth(own, []), 560);
  assert.equal(
    minDiagramWidth('<svg id="m3" viewBox="0 0 320 100"></svg>', []),
    280,
    "mermaid's 16 px when no size is found",
  );
  assert.equal(minDiagramWidth('<svg id="m4"></svg>', []), null);
});

test("a diagram's name: its %% title, else its caption, else its first node labels", () => {
  assert.equal(
    diagramName('How pipeline() cleans up', 'docs/readalong.md line 3', 'flowchart LR', flow),
    'How pipeline() cleans up',
  );
  assert.equal(diagramName(null, 'docs/readalong.md line 3', 'flowchart LR', flow), 'docs/readalong.md line 3');
  assert.equal(diagramName(null, null, 'flowchart LR', flow), 'Diagram: createReadStream(input), a & b, third');
  assert.equal(
    diagramName(null, null, 'flowchart LR\n  a[Source] --> b(Sink)\n  b --> c{"Done?"}', null),
    'Diagram: Source, Sink, Done?',
  );
  assert.equal(
    diagramName(null, null, 'sequenceDiagram\n  participant App\n  participant S as Stream', null),
    'Diagram: App, Stream',
  );
  assert.equal(diagramName(null, null, 'pie', null), 'Diagram');
});
