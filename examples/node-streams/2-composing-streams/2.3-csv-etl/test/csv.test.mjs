import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsvLine } from '../src/csv.mjs';

test('splits plain fields on commas, keeping empty fields', () => {
  assert.deepEqual(parseCsvLine('a,b,,d'), ['a', 'b', '', 'd']);
  assert.deepEqual(parseCsvLine(''), ['']);
});

test('a quoted field may contain commas and doubled quotes', () => {
  assert.deepEqual(parseCsvLine('1,"Smith, Jane","She said ""hi"""'), ['1', 'Smith, Jane', 'She said "hi"']);
  assert.deepEqual(parseCsvLine('"",x'), ['', 'x']);
});

test('an unterminated quoted field is an error', () => {
  assert.throws(() => parseCsvLine('1,"open'), /unterminated quoted field/);
});
