// Unit tests of the "did you mean" distance and threshold.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editDistance, nearest } from './suggest.ts';

test('editDistance counts insertions, deletions, substitutions and adjacent swaps as one', () => {
  const cases: Array<[string, string, number]> = [
    ['site', 'site', 0],
    ['sitee', 'site', 1],
    ['sit', 'site', 1],
    ['stae', 'state', 1],
    ['shwo', 'show', 1],
    ['verfiy', 'verify', 1],
    ['', 'init', 4],
    ['bogus', 'build', 4],
  ];
  for (const [a, b, expected] of cases) assert.equal(editDistance(a, b), expected, `${a} → ${b}`);
});

test('nearest suggests a close word and nothing for a far one', () => {
  const top = [
    'init',
    'state',
    'status',
    'register',
    'report',
    'verify',
    'schema',
    'check',
    'site',
    'completion',
    'help',
  ];
  assert.equal(nearest('sitee', top), 'site');
  assert.equal(nearest('stat', top), 'state', 'ties go to the first candidate of the table');
  assert.equal(nearest('regsiter', top), 'register');
  assert.equal(nearest('out', ['out', 'base', 'site']), 'out');
  assert.equal(nearest('outt', ['out', 'base', 'site', 'drafts']), 'out');
  assert.equal(nearest('bogus', top), undefined);
  assert.equal(nearest('x', top), undefined);
});
