// Every error the CLI settles carries its own exit code, so cli/run.ts maps by that code and a
// renamed class cannot silently turn a refusal into an internal error (exit 3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CodelabgenError, DataFileError } from '../../content-schemas/fast.ts';
import { ChecksFailedError, EXIT, RefusalError, StoreWriteError } from './errors.ts';

test('each error class states its exit code', () => {
  const cases: [CodelabgenError, number][] = [
    [new RefusalError('no'), EXIT.refused],
    [new StoreWriteError('disk full'), EXIT.refused],
    [new DataFileError('x.yaml', ['a: bad']), EXIT.refused],
    [new ChecksFailedError('check found 1 problem'), EXIT.checkFailed],
  ];
  for (const [error, code] of cases) {
    assert.ok(error instanceof CodelabgenError, error.name);
    assert.equal(error.exitCode, code, error.name);
  }
});

test('a class renamed or subclassed keeps its exit code', () => {
  class RenamedRefusal extends RefusalError {
    override name = 'SomethingElse';
  }
  assert.equal(new RenamedRefusal('no').exitCode, EXIT.refused);
});

test('what the CLI prints: a refusal with its hints, a data file one problem per line', () => {
  assert.deepEqual(new RefusalError('lesson 9.9 unknown', ['list lessons']).report(), {
    error: 'lesson 9.9 unknown',
    hints: ['list lessons'],
  });
  assert.deepEqual(new DataFileError('c.yaml', ['a: bad', 'b: worse', 'c: worst']).report(), {
    error: 'c.yaml: a: bad (and 2 more problems)',
    hints: ['c.yaml: b: worse', 'c.yaml: c: worst'],
  });
  assert.deepEqual(new DataFileError('c.yaml', ['a: bad']).report(), { error: 'c.yaml: a: bad', hints: [] });
  assert.equal(new ChecksFailedError('x', { quiet: true }).quiet, true);
});
