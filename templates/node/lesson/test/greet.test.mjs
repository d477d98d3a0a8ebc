import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from '../src/greet.mjs';

test('greet returns a greeting that names the person', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});

test('greet refuses an empty name', () => {
  assert.throws(() => greet('  '), RangeError);
});
