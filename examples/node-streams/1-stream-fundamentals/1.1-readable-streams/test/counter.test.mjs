import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createCounter } from '../src/counter.mjs';
import { collectFlowing, collectPaused } from '../src/consume.mjs';

test('flowing mode receives every number in order, then end', async () => {
  assert.deepEqual(await collectFlowing(createCounter({ limit: 5 })), [1, 2, 3, 4, 5]);
});

test('paused mode with read() receives the same numbers', async () => {
  assert.deepEqual(await collectPaused(createCounter({ limit: 5, highWaterMark: 2 })), [1, 2, 3, 4, 5]);
});

test('push() returns false once the buffer reaches highWaterMark', () => {
  const stream = new Readable({ objectMode: true, highWaterMark: 2, read() {} });
  assert.equal(stream.push('a'), true);
  assert.equal(stream.push('b'), false);
  assert.equal(stream.readableLength, 2);
});

test('a new stream does not call read() until someone consumes it', async () => {
  const pushed = [];
  createCounter({ limit: 100, highWaterMark: 4, onPush: (n) => pushed.push(n) });
  await nextTurn();
  assert.deepEqual(pushed, []);
});

test('the source stops at highWaterMark when nobody reads (backpressure)', async () => {
  const pushed = [];
  const stream = createCounter({ limit: 100, highWaterMark: 4, onPush: (n) => pushed.push(n) });
  stream.on('readable', () => {}); // paused mode, but we never call read()
  await nextTurn();
  await nextTurn();
  assert.deepEqual(pushed, [1, 2, 3, 4]);
  assert.equal(stream.readableLength, 4);

  assert.equal(stream.read(), 1); // consuming one chunk makes room for one more
  await nextTurn();
  assert.deepEqual(pushed, [1, 2, 3, 4, 5]);
  stream.destroy();
});

test('the stream ends after the last number and emits nothing more', async () => {
  const stream = createCounter({ limit: 2 });
  const chunks = await collectFlowing(stream);
  assert.deepEqual(chunks, [1, 2]);
  assert.equal(stream.readableEnded, true);
});
