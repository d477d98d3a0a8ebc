// The tail of events.jsonl: only new bytes are read, a torn last line waits for its newline, and a
// log cut shorter, replaced or rewritten is read again from the start.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { memoryTempDir } from '../../cli/testing.ts';
import { openEventTail, watchEventTail, type TailBatch } from './event-tail.ts';

const line = (seq: number) =>
  `${JSON.stringify({ seq, ts: '2026-01-01T00:00:00.000Z', kind: 'log', fact: `f${seq}`, data: {} })}\n`;
const seqs = (batch: TailBatch) => [batch.events.map((e) => e.seq), batch.reset];

/**
 * `events.jsonl` in a new temp folder, removed after the test; `inMemory`: in cli/testing.ts's
 * memoryTempDir (/dev/shm where there is one, removed when the file ends), for a sparse tail of
 * gigabytes, whose hole a tmpfs reads without filling the page cache.
 */
function tempLog(t: { after(fn: () => void): void }, inMemory = false): string {
  if (inMemory) return path.join(memoryTempDir('codelabgen-tail-'), 'events.jsonl');
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-tail-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'events.jsonl');
}

test('reads the whole log first, then only what was appended, by byte offset', (t) => {
  const file = tempLog(t);
  const tail = openEventTail(file);
  assert.deepEqual(seqs(tail.read()), [[], false], 'no log yet');
  writeFileSync(file, line(1) + line(2));
  assert.deepEqual(seqs(tail.read()), [[1, 2], false]);
  assert.equal(tail.offset, Buffer.byteLength(line(1) + line(2)));
  appendFileSync(file, line(3));
  assert.deepEqual(seqs(tail.read()), [[3], false]);
  assert.deepEqual(seqs(tail.read()), [[], false], 'nothing new');
});

test('a torn last line is left until its newline comes; one cut back and written again is read once', (t) => {
  const file = tempLog(t);
  writeFileSync(file, line(1));
  const tail = openEventTail(file);
  tail.read();
  const torn = line(2).slice(0, 20);
  appendFileSync(file, torn);
  assert.deepEqual(seqs(tail.read()), [[], false]);
  appendFileSync(file, line(2).slice(20));
  assert.deepEqual(seqs(tail.read()), [[2], false]);
  // A failed append is cut back to the previous size (pipeline/store/log.ts) before the next one.
  const size = tail.offset;
  appendFileSync(file, line(3).slice(0, 10));
  tail.read();
  truncateSync(file, size);
  appendFileSync(file, line(3));
  assert.deepEqual(seqs(tail.read()), [[3], false]);
});

test('a log cut shorter, replaced by another file or rewritten in place is read again from the start', (t) => {
  const file = tempLog(t);
  writeFileSync(file, line(1) + line(2) + line(3));
  const tail = openEventTail(file);
  tail.read();
  truncateSync(file, Buffer.byteLength(line(1)));
  assert.deepEqual(seqs(tail.read()), [[1], true], 'truncated');
  const other = `${file}.new`;
  writeFileSync(other, line(1) + line(2) + line(3) + line(4));
  renameSync(other, file);
  assert.deepEqual(seqs(tail.read()), [[1, 2, 3, 4], true], 'replaced (a rebuild)');
  // The same file, longer, whose new lines do not follow seq 4: rewritten in place.
  const rewritten = line(1) + line(2) + line(3) + line(4) + line(5);
  writeFileSync(file, rewritten.replace('"seq":5', '"seq":9'));
  assert.deepEqual(seqs(tail.read()), [[1, 2, 3, 4, 9], true], 'rewritten');
});

test('watchEventTail calls back with the whole log, then with each append', async (t) => {
  const file = tempLog(t);
  writeFileSync(file, line(1));
  const batches: TailBatch[] = [];
  let wake = () => {};
  const watch = watchEventTail(
    file,
    (batch) => {
      batches.push(batch);
      wake();
    },
    { pollMs: 50 },
  );
  t.after(() => watch.close());
  assert.deepEqual(batches.map(seqs), [[[1], false]]);
  const next = new Promise<void>((resolve) => (wake = resolve));
  appendFileSync(file, line(2));
  await next;
  assert.deepEqual(batches.map(seqs).at(-1), [[2], false]);
});

test('a log grown past 2 GiB by a sparse tail is tailed in bounded memory: events before it read, the tail waits', {
  timeout: 300_000,
}, (t) => {
  const file = tempLog(t, true);
  writeFileSync(file, line(1) + line(2));
  const good = Buffer.byteLength(line(1) + line(2));
  truncateSync(file, good + 2 * 1024 ** 3 + 1); // a hole: no disk used
  const tail = openEventTail(file);
  const peakBefore = process.resourceUsage().maxRSS; // KiB, the process's peak so far
  assert.deepEqual(seqs(tail.read()), [[1, 2], false]);
  const grown = process.resourceUsage().maxRSS - peakBefore;
  assert.ok(grown < 256 * 1024, `the read raised the peak memory by ${grown} KiB (reading the log whole: 2 GiB)`);
  assert.equal(tail.offset, good, 'the unterminated tail is not consumed');
  assert.deepEqual(seqs(tail.read()), [[], false], 'unchanged: not scanned again');
});
