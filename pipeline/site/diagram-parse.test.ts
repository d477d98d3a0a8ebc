// DiagramParse (pipeline/site/diagram-parse.ts), the diagrams of one `check`: prefetch() starts the
// parser at a diagram the cache does not hold before the diagram is added (check-refs.ts reads a
// lesson's .mmd files before its docs), without changing the order of the diagrams or their problems.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DiagramParse } from './diagram-parse.ts';

const GOOD = 'flowchart LR\n  a --> b\n';
const BROKEN = 'flowchart LR\n  a --> --> b[\n';
const BROKEN_TOO = 'flowchart LR\n  c --> --> d[\n';

test('prefetch starts the parser at a diagram the cache does not hold; the problems keep the order the diagrams were added in', async () => {
  const cache = mkdtempSync(path.join(tmpdir(), 'codelabgen-diagram-parse-'));
  try {
    const env = { ...process.env, CODELABGEN_DIAGRAM_CACHE: cache };
    const first = new DiagramParse(env);
    first.prefetch(BROKEN_TOO);
    assert.equal(first.started, true, 'a diagram not kept starts the parser at prefetch');
    first.add({ lesson: '1.1', where: 'docs/notes.md:3', source: BROKEN });
    first.add({ lesson: '1.1', where: 'docs/diagrams/flow.mmd', source: BROKEN_TOO });
    first.add({ lesson: '1.2', where: 'docs/notes.md:5', source: GOOD });
    const parsed = await first.finish();
    assert.equal(parsed.unavailable, null);
    assert.equal(parsed.problems.length, 2);
    assert.match(parsed.problems[0]!, /^lesson 1\.1 docs\/notes\.md:\d+: diagram does not parse: /);
    assert.match(parsed.problems[1]!, /^lesson 1\.1 docs\/diagrams\/flow\.mmd:\d+: diagram does not parse: /);

    // Every outcome now kept: prefetch reads it and starts nothing, and the same problems come out.
    const again = new DiagramParse(env);
    for (const source of [BROKEN_TOO, GOOD, BROKEN]) again.prefetch(source);
    assert.equal(again.started, false);
    again.add({ lesson: '1.1', where: 'docs/notes.md:3', source: BROKEN });
    again.add({ lesson: '1.1', where: 'docs/diagrams/flow.mmd', source: BROKEN_TOO });
    again.add({ lesson: '1.2', where: 'docs/notes.md:5', source: GOOD });
    assert.equal(again.started, false);
    assert.deepEqual((await again.finish()).problems, parsed.problems);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
