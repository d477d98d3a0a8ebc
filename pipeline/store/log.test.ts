// Unit tests of the log scanner's verdicts (torn, corrupt, newer) and of lastLineSeq, the cheap
// read of the last line's seq that every command's fast path relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../../cli/testing.ts';
import { lastLineSeq, scanLogBytes } from './log.ts';

const event = (seq: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ seq, ts: '2026-01-01T00:00:00.000Z', kind: 'log', fact: 'f', lesson: null, data: {}, ...extra });
const log = (...lines: string[]) => Buffer.from(lines.join(''));

test('only an unterminated or non-JSON last line is torn; a complete JSON line never is', () => {
  const cases: Array<[string, Buffer, { torn: boolean; corrupt: number | null; newer: number | null }]> = [
    ['no newline', log(`${event(1)}\n`, event(2)), { torn: true, corrupt: null, newer: null }],
    ['cut mid-JSON, newline', log(`${event(1)}\n`, '{"seq":2,"ts\n'), { torn: true, corrupt: null, newer: null }],
    ['seq gap at the end', log(`${event(1)}\n`, `${event(3)}\n`), { torn: false, corrupt: 2, newer: null }],
    [
      'invalid known event at the end',
      log(`${event(1)}\n`, `${event(2, { fact: '' })}\n`),
      { torn: false, corrupt: 2, newer: null },
    ],
    [
      'unknown kind at the end',
      log(`${event(1)}\n`, `${event(2, { kind: 'lesson.teleport' })}\n`),
      { torn: false, corrupt: null, newer: 2 },
    ],
    [
      'newer schema_version in the middle',
      log(`${event(1)}\n`, `${event(2, { schema_version: 2 })}\n`, `${event(3)}\n`),
      { torn: false, corrupt: null, newer: 2 },
    ],
  ];
  for (const [name, bytes, expected] of cases) {
    const scan = scanLogBytes(bytes);
    assert.deepEqual(
      { torn: scan.torn !== null, corrupt: scan.corrupt?.line ?? null, newer: scan.newer?.line ?? null },
      expected,
      name,
    );
  }
});

test('lastLineSeq reads the last complete line from the end, however long it is', () => {
  const dir = scratchDir('codelabgen-log-');
  const file = path.join(dir, 'events.jsonl');
  const check = (text: string, expected: number | null) => {
    writeFileSync(file, text);
    assert.equal(lastLineSeq(file, Buffer.byteLength(text)), expected, JSON.stringify(text.slice(-40)));
  };
  check('', 0);
  check(`${event(1)}\n`, 1);
  check(`${event(1)}\n${event(2)}\n`, 2);
  check(`${event(1)}\n${event(2, { data: { big: 'x'.repeat(100_000) } })}\n`, 2); // crosses several reads
  check(`${event(1)}\n{"seq":2`, null); // torn: not a complete line
  check(`${event(1)}\nnot json\n`, null);
});
