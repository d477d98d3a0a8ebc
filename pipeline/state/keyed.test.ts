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
