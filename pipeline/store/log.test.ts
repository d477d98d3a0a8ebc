// Unit tests of the log scanner's verdicts (torn, corrupt, newer) and of lastLineSeq, the cheap
// read of the last line's seq that every command's fast path relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { scratchDir } from '../../cli/testing.ts';
import { lastLineSeq, scanLogBytes } from './log.ts';
import { MAX_EVENT_LINE_BYTES } from './log-lines.ts';

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

test('the streamed scan reads lines that straddle its 1 MiB chunks, and keeps no line longer than any event', {
  timeout: 60_000,
}, () => {
  // Events of about 300 KB: lines 4 and 7 cross the first and second MiB.
  const lines = Array.from(
    { length: 8 },
    (_, index) => `${event(index + 1, { data: { pad: 'x'.repeat(300_000) } })}\n`,
  );
  const bytes = log(...lines);
  const scan = scanLogBytes(bytes);
  assert.deepEqual(
    scan.events.map((parsed) => parsed.seq),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  assert.equal(scan.goodBytes, bytes.length);
  assert.deepEqual(scan.offsets.at(3), Buffer.byteLength(lines.slice(0, 4).join('')));
  assert.equal(scan.torn, null);
  // A tail with no newline far longer than MAX_EVENT_LINE_BYTES: torn, located, and its bytes never buffered whole.
  const tail = Buffer.alloc(MAX_EVENT_LINE_BYTES + 3 * 1024 * 1024);
  const torn = scanLogBytes(Buffer.concat([bytes, tail]));
  assert.deepEqual(torn.torn, { offset: bytes.length, length: tail.length });
  assert.equal(torn.lastSeq, 8);
  // The same tail followed by a newline and an event: a corrupt line 9, not an event.
  const corrupt = scanLogBytes(Buffer.concat([bytes, tail, Buffer.from(`\n${event(9)}\n`)]));
  assert.match(corrupt.corrupt?.problem ?? '', /^a line of \d+ bytes, longer than any event$/);
  assert.equal(corrupt.corrupt?.line, 9);
});
