import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getOwn, replayBatch, withOwn, withoutOwn } from './keyed.ts';

test('withOwn copies outside a batch and never touches its input', () => {
  const base = { a: 1 };
  const next = withOwn(base, '__proto__', 2);
  assert.deepEqual(base, { a: 1 });
  assert.notEqual(next, base);
  assert.equal(getOwn(next, '__proto__'), 2);
  assert.equal(Object.getPrototypeOf(next), Object.prototype);
});

test('replayBatch reuses its own copies but never changes what it was given', () => {
  const base: Record<string, number> = { a: 1 };
  const result = replayBatch(() => {
    const first = withOwn(base, 'b', 2);
    const second = withOwn(first, 'c', 3);
    assert.equal(second, first, 'the batch copy is reused');
    const dropped = withoutOwn(second, ['a']);
    return withOwn(dropped, 'd', 4);
  });
  assert.deepEqual(base, { a: 1 });
  assert.deepEqual(result, { b: 2, c: 3, d: 4 });
  const after = withOwn(result, 'e', 5);
  assert.notEqual(after, result, 'outside the batch every change copies again');
  assert.deepEqual(result, { b: 2, c: 3, d: 4 });
});

test('a copy keeps every own key in order, an own "__proto__" key as data, and the plain prototype', () => {
  const record = JSON.parse(
    `{${[...Array.from({ length: 300 }, (_, i) => `"${i % 7}.${i}": ${i}`), '"__proto__": -1', '"10": 10', '"2": 2'].join(',')}}`,
  ) as Record<string, number>;
  const keys = Object.keys(record);
  const next = withOwn(record, '1.1000', 1000);
  assert.deepEqual(Object.keys(next), [...keys, '1.1000']);
  assert.deepEqual(Object.entries(next).slice(0, -1), Object.entries(record));
  assert.equal(getOwn(next, '__proto__'), -1);
  assert.equal(Object.getPrototypeOf(next), Object.prototype);
  assert.equal(JSON.stringify(next), JSON.stringify({ ...record, '1.1000': 1000 }));
  const fewer = withoutOwn(next, ['0.0', '__proto__', '1.1000']);
  assert.deepEqual(
    Object.keys(fewer),
    keys.filter((key) => key !== '0.0' && key !== '__proto__'),
  );
  assert.equal(Object.getPrototypeOf(fewer), Object.prototype);
  assert.equal(Object.keys(record).length, keys.length, 'the input is untouched');
});
