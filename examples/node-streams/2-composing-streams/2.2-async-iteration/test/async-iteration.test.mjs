import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { naturals } from '../src/naturals.mjs';
import { filter, map, take, toArray } from '../src/stages.mjs';

test('for await reads every chunk of a stream in order', async () => {
  const seen = [];
  for await (const word of Readable.from(['alpha', 'beta', 'gamma'])) seen.push(word);
  assert.deepEqual(seen, ['alpha', 'beta', 'gamma']);
});

test('Readable.from defaults to object mode and keeps a string as one chunk', async () => {
  const stream = Readable.from('hello world');
  assert.equal(stream.readableObjectMode, true);
  assert.deepEqual(await toArray(stream), ['hello world']); // not split into characters
});

test('break in for await destroys the stream and closes the generator', async () => {
  const yielded = [];
  let closed = 0;
  const source = naturals({ onYield: (n) => yielded.push(n), onFinally: () => (closed += 1) });
  const stream = Readable.from(source, { highWaterMark: 2 });
  for await (const n of stream) {
    if (n === 3) break;
  }
  assert.equal(stream.destroyed, true);
  assert.equal(closed, 1); // the generator's finally block ran
  assert.ok(yielded.length <= 3 + 2, `read ahead ${yielded.length} values`); // consumed + buffer
});

test('generator stages compose in pipeline() and stop an endless source', async () => {
  let closed = 0;
  const squaresOfEvens = await pipeline(
    Readable.from(naturals({ onFinally: () => (closed += 1) })),
    filter((n) => n % 2 === 0),
    map(async (n) => n * n), // stages may await
    take(3),
    toArray,
  );
  assert.deepEqual(squaresOfEvens, [4, 16, 36]);
  assert.equal(closed, 1);
});

test('an error thrown in a stage rejects the pipeline and still closes the source', async () => {
  let closed = 0;
  const failing = map((n) => {
    if (n === 4) throw new Error(`cannot handle ${n}`);
    return n;
  });
  await assert.rejects(
    pipeline(Readable.from(naturals({ onFinally: () => (closed += 1) })), failing, toArray),
    /cannot handle 4/,
  );
  assert.equal(closed, 1);
});

test('take(0) yields nothing', async () => {
  assert.deepEqual(await pipeline(Readable.from([1, 2, 3]), take(0), toArray), []);
});
