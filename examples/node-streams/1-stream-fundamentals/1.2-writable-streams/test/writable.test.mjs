import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createSlowSink } from '../src/slow-sink.mjs';
import { writeAll, writeAllIgnoringBackpressure } from '../src/write-all.mjs';

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);

test('write() returns false once the buffered count reaches highWaterMark', () => {
  const sink = createSlowSink({ highWaterMark: 3 });
  assert.equal(sink.write('a'), true); // being written: counts as buffered
  assert.equal(sink.write('b'), true);
  assert.equal(sink.write('c'), false); // 3 buffered = highWaterMark
  assert.equal(sink.writableLength, 3);
  assert.equal(sink.writableNeedDrain, true);
  sink.destroy();
});

test("'drain' fires once the buffer is empty again", async () => {
  const sink = createSlowSink({ highWaterMark: 2 });
  sink.write('a');
  assert.equal(sink.write('b'), false);
  await new Promise((resolve) => sink.once('drain', resolve));
  assert.equal(sink.writableLength, 0);
  assert.deepEqual(sink.received, ['a', 'b']);
  sink.destroy();
});

test('writeAll never lets the buffer grow past highWaterMark', async () => {
  const sink = createSlowSink({ highWaterMark: 4 });
  await writeAll(sink, range(50));
  assert.deepEqual(sink.received, range(50));
  assert.ok(sink.maxBuffered <= 4, `maxBuffered was ${sink.maxBuffered}`);
});

test('ignoring write() buffers every chunk in memory', async () => {
  const sink = createSlowSink({ highWaterMark: 4 });
  await writeAllIgnoringBackpressure(sink, range(50));
  assert.deepEqual(sink.received, range(50));
  assert.equal(sink.maxBuffered, 50); // all 50 were queued before the first write completed
});

test('writeAll rejects when the stream fails', async () => {
  const failing = new Writable({
    objectMode: true,
    highWaterMark: 1, // every write() returns false, so writeAll awaits 'drain' each time
    write(chunk, _encoding, callback) {
      setImmediate(() => callback(chunk === 3 ? new Error('disk full') : null));
    },
  });
  await assert.rejects(writeAll(failing, range(5)), /disk full/);
  assert.equal(failing.destroyed, true);
});
