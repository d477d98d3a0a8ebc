import assert from 'node:assert/strict';
import test from 'node:test';
import { RefusalError } from '../course/errors.ts';
import { findShellOperator, refuseShellOperators } from './shell-operators.ts';

test('finds each shell operator', () => {
  const cases: Array<[string, string]> = [
    ['a && b', '&&'],
    ['a || b', '||'],
    ['a | b', '|'],
    ['a; b', ';'],
    ['a > f', '>'],
    ['a < f', '<'],
    ['`id`', '`'],
    ['$(id)', '$('],
  ];
  for (const [value, operator] of cases) assert.equal(findShellOperator(value), operator, value);
});

test('plain arguments pass', () => {
  for (const value of ['--test', '-k', 'test_add and not slow', 'tests/unit', '--reporter=spec', '$HOME', 'a&b'])
    assert.equal(findShellOperator(value), null, value);
  refuseShellOperators(['node', '--test', 'test/'], 'x');
});

test('refuses naming the field and the element index', () => {
  assert.throws(
    () => refuseShellOperators(['npm', 'ci', 'x && npm test'], '.codelabgen/lessons/1.2/spec.yaml: test_command'),
    (error: unknown) =>
      error instanceof RefusalError &&
      error.message ===
        '.codelabgen/lessons/1.2/spec.yaml: test_command[2]: "x && npm test" contains the shell operator ' +
          '"&&"; test commands run without a shell, so give one program and its arguments as a list',
  );
});
