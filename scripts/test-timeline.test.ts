// The summary of a test run's timeline (scripts/test-timeline.ts): where a core idled and what ran
// then, what ran alone at the end, and which files mostly wait.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Sample, summarize } from './test-timeline.ts';

/** One sample a second from 1 s to `to`, `busy(t)` cores busy. */
const samples = (to: number, busy: (t: number) => number): Sample[] =>
  Array.from({ length: to }, (_, i) => ({
    t: i + 1,
    busy: busy(i + 1),
    ours: busy(i + 1) / 2,
    run: busy(i + 1),
    load: 2,
  }));

test('the summary names the idle stretches and the files running then, the tail, and the files that mostly wait', () => {
  const lines = summarize({
    cores: 2,
    concurrency: 2,
    files: [
      { file: 'a.test.ts', start: 0, end: 40, cpu: 38 },
      { file: 'b.test.ts', start: 0, end: 20, cpu: 2 },
      { file: 'c.test.ts', start: 20, end: 30, cpu: 9 },
      { file: 'short.test.ts', start: 30, end: 33 },
    ],
    // Both cores busy to 20 s, then one core (3 s: too short to count), both again, one from 30 s on.
    samples: samples(40, (t) => ((t > 20 && t <= 23) || t > 30 ? 1 : 2)),
  });
  assert.deepEqual(lines.slice(1, 5), [
    '     0 s  2.00 ####################  ours 1.00 run 2.00  load   2.0  2 files',
    '    10 s  2.00 ####################  ours 1.00 run 2.00  load   2.0  2 files',
    '    20 s  1.70 #################...  ours 0.85 run 1.70  load   2.0  2 files',
    '    30 s  1.00 ##########..........  ours 0.50 run 1.00  load   2.0  2 files',
  ]);
  assert.deepEqual(lines.slice(5, 7), [
    'idle stretches (>= 5 s with under 1.5 cores busy): 1, 10.0 s',
    '  30.0-40.0 s, 1.00 busy: a.test.ts, short.test.ts',
  ]);
  assert.ok(
    lines.includes(
      "cores busy on average: 1.68 of 2 (67.0 core-s), the tests' own 0.84 (33.5 core-s), the parent's 1.68 (67.0 core-s)",
    ),
    lines.join('\n'),
  );
  const tail = lines.indexOf('after the last file started (30.0 s): 2 files still ran, ending at');
  assert.deepEqual(lines.slice(tail + 1, tail + 3), [
    '    40.0 s  a.test.ts (from 0.0 s, 38.0 s CPU)',
    '    33.0 s  short.test.ts (from 30.0 s, NaN s CPU)',
  ]);
  const waits = lines.indexOf('files of 5 s or more by CPU / wall, lowest first (the ones that mostly wait):');
  assert.deepEqual(
    lines.slice(waits + 1).map((line) => line.trim().split(/\s+/).at(-1)),
    ['b.test.ts', 'c.test.ts', 'a.test.ts'],
  );
});

test('a late sample counts for the time since the one before', () => {
  const lines = summarize({
    cores: 2,
    concurrency: 1,
    files: [],
    samples: [
      { t: 1, busy: 2, ours: 2, run: 2, load: 1 },
      { t: 3, busy: 1, ours: 0, run: 1, load: 1 },
    ],
  });
  assert.ok(
    lines.includes(
      "cores busy on average: 1.33 of 2 (4.0 core-s), the tests' own 0.67 (2.0 core-s), the parent's 1.33 (4.0 core-s)",
    ),
    lines.join('\n'),
  );
});
