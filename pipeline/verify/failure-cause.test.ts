import assert from 'node:assert/strict';
import test from 'node:test';
import { failureCause } from './failure-cause.ts';

const exited = (exit_code: number) => ({ exit_code, signal: null, timed_out: false, timeout_seconds: 30 });

test('node TAP: the failing test and its assertion message', () => {
  const output = "ok 1 - adds\nnot ok 2 - fails\n  ---\n  duration_ms: 4.3\n  failureType: 'testCodeFailure'\n  error: |-\n    Expected values to be strictly equal:\n\n    2 !== 3\n";
  assert.equal(failureCause(output, exited(1)), 'fails: Expected values to be strictly equal:');
});

test('node spec reporter: the failing test and the error line', () => {
  const output = '✔ adds (1ms)\n✖ fails (10.3ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n✖ failing tests:\n';
  assert.equal(failureCause(output, exited(1)), 'fails: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:');
});

test('pytest: the short summary line', () => {
  const output = 'E   AssertionError: 1 != 2\n==== short test summary info ====\nFAILED test_m.py::T::test_b - AssertionError: 1 != 2\n==== 1 failed in 0.1s ====\n';
  assert.equal(failureCause(output, exited(1)), 'FAILED test_m.py::T::test_b - AssertionError: 1 != 2');
});

test('unittest: the FAIL header and the assertion', () => {
  const output = '.F\n======\nFAIL: test_b (test_m.T.test_b)\n------\nTraceback (most recent call last):\n  File "x.py", line 4\nAssertionError: 1 != 2\n\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n';
  assert.equal(failureCause(output, exited(1)), 'FAIL: test_b (test_m.T.test_b): AssertionError: 1 != 2');
});

test('an Error: line when no test is named', () => {
  assert.equal(failureCause('starting\nError: Cannot find module \'./x.js\'\n    at y\n', exited(1)), "Error: Cannot find module './x.js'");
});

test('the exit code and the last line when nothing else matches', () => {
  assert.equal(failureCause('compiling\nsomething went sideways\n', exited(3)), 'exit code 3: something went sideways');
  assert.equal(failureCause('', exited(3)), 'exit code 3 with no output');
});

test('timeout and signal come first', () => {
  assert.equal(failureCause('waiting\n', { exit_code: null, signal: 'SIGKILL', timed_out: true, timeout_seconds: 5 }), 'timed out after 5s');
  assert.equal(failureCause('', { exit_code: null, signal: 'SIGSEGV', timed_out: false, timeout_seconds: 5 }), 'killed by SIGSEGV');
});

test('the cause is one line of at most 300 characters', () => {
  const cause = failureCause(`Error: ${'x'.repeat(1000)}\r\n`, exited(1));
  assert.equal(cause.length, 300);
  assert.ok(!/[\r\n]/.test(cause));
});
