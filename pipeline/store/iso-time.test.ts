// isoTime() writes what Date.prototype.toISOString() does, without its time zone lookup.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prng } from '../../cli/fuzz-cases.ts';
import { isoTime } from './iso-time.ts';

test('isoTime is toISOString on 20,000 seeded times, the edges of years 0 and 9999, and beyond them', () => {
  const random = prng(5);
  const year = (y: number) => Date.UTC(y, 0, 1);
  const edges = [
    0,
    1,
    -1,
    999,
    year(0),
    year(0) - 1,
    year(10000) - 1,
    year(10000),
    year(-1),
    year(275000),
    8.64e15,
    -8.64e15,
  ];
  const times = [...edges, ...Array.from({ length: 20_000 }, () => Math.floor((random() * 2 - 0.5) * year(10100)))];
  for (const time of times) assert.equal(isoTime(new Date(time)), new Date(time).toISOString(), `time ${time}`);
  assert.throws(() => isoTime(new Date(Number.NaN)), RangeError, 'an invalid date throws as toISOString does');
});
