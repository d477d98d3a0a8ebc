import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quantile, ratio, summarize } from './stats.ts';

test('quantile uses the nearest rank', () => {
  const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100, unsorted
  assert.equal(quantile(samples, 0.5), 50);
  assert.equal(quantile(samples, 0.95), 95);
  assert.equal(quantile(samples, 0.99), 99);
  assert.equal(quantile([7], 0.99), 7);
  assert.ok(Number.isNaN(quantile([], 0.5)));
});

test('summarize and ratio', () => {
  assert.deepEqual(summarize([1, 2, 3, 4]), { n: 4, median_ms: 2, p95_ms: 4, p99_ms: 4 });
  assert.equal(ratio(3, 2), 1.5);
  assert.equal(ratio(1, 0), null);
});
