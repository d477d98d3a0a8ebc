import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { failureCause, failureEvidence } from './failure-cause.ts';

/** Real output of each runner on two failing tests (failure-samples/, recorded once). */
const sample = (name: string) => readFileSync(new URL(`./failure-samples/${name}.txt`, import.meta.url), 'utf8');

const exited = (exit_code: number) => ({ exit_code, signal: null, timed_out: false, timeout_seconds: 30 });

test('node TAP: the failing test and its assertion message with the values', () => {
  const output =
    "ok 1 - adds\nnot ok 2 - fails\n  ---\n  duration_ms: 4.3\n  failureType: 'testCodeFailure'\n  error: " +
    '|-\n    Expected values to be strictly equal:\n\n    2 !== 3\n';
  assert.equal(failureCause(output, exited(1)), 'fails: Expected values to be strictly equal: 2 !== 3');
});

test('node spec reporter: the failing test and the error line', () => {
  const output =
    '✔ adds (1ms)\n✖ fails (10.3ms)\n  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n  2 !== 3\n\n      at x (file:///a.mjs:1:1)\n';
  assert.equal(
    failureCause(output, exited(1)),
    'fails: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 2 !== 3',
  );
});

test('pytest: the short summary line', () => {
  const output =
    'E   AssertionError: 1 != 2\n==== short test summary info ====\nFAILED test_m.py::T::test_b - AssertionError: 1 != 2\n==== 1 failed in 0.1s ====\n';
  assert.equal(failureCause(output, exited(1)), 'FAILED test_m.py::T::test_b - AssertionError: 1 != 2');
});

test('unittest: the FAIL header and the assertion', () => {
  const output =
    '.F\n======\nFAIL: test_b (test_m.T.test_b)\n------\nTraceback (most recent call last):\n  File "x.py", ' +
    'line 4\nAssertionError: 1 != 2\n\nRan 2 tests in 0.001s\n\nFAILED (failures=1)\n';
  assert.equal(failureCause(output, exited(1)), 'FAIL: test_b (test_m.T.test_b): AssertionError: 1 != 2');
});

test('an Error: line when no test is named', () => {
  assert.equal(
    failureCause("starting\nError: Cannot find module './x.js'\n    at y\n", exited(1)),
    "Error: Cannot find module './x.js'",
  );
});

test('the exit code and the last line when nothing else matches', () => {
  assert.equal(failureCause('compiling\nsomething went sideways\n', exited(3)), 'exit code 3: something went sideways');
  assert.equal(failureCause('', exited(3)), 'exit code 3 with no output');
});

test('timeout and signal come first', () => {
  assert.equal(
    failureCause('waiting\n', { exit_code: null, signal: 'SIGKILL', timed_out: true, timeout_seconds: 5 }),
    'timed out after 5s',
  );
  assert.equal(
    failureCause('', { exit_code: null, signal: 'SIGSEGV', timed_out: false, timeout_seconds: 5 }),
    'killed by SIGSEGV',
  );
});

test('the cause is one line of at most 300 characters', () => {
  const cause = failureCause(`Error: ${'x'.repeat(1000)}\r\n`, exited(1));
  assert.equal(cause.length, 300);
  assert.ok(!/[\r\n]/.test(cause));
});

test('evidence, node TAP: the first failing test, its whole assertion message (the diff)', () => {
  assert.equal(
    failureEvidence(sample('node-tap')),
    [
      'parses the header',
      '  Expected values to be strictly deep-equal:',
      '  + actual - expected',
      '    {',
      "      name: 'a',",
      '  +   size: 2',
      '  -   size: 3',
      '    }',
    ].join('\n'),
  );
});

test('evidence, node TAP: scalar actual and expected values are kept', () => {
  const output = sample('node-tap').slice(sample('node-tap').indexOf('# Subtest: counts words'));
  assert.equal(
    failureEvidence(output),
    'counts words\n  Expected values to be strictly equal:\n  2 !== 3\n  expected: 3\n  actual: 2',
  );
});

test('evidence, node spec reporter: the entry under "failing tests" with actual and expected', () => {
  assert.equal(
    failureEvidence(sample('node-spec')),
    [
      'parses the header',
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:',
      '  + actual - expected',
      '    {',
      "      name: 'a',",
      '  +   size: 2',
      '  -   size: 3',
      '    }',
      "  actual: { name: 'a', size: 2 }",
      "  expected: { name: 'a', size: 3 }",
    ].join('\n'),
  );
});

test('evidence, pytest: the node id and the E lines with the values', () => {
  assert.equal(
    failureEvidence(sample('pytest')),
    "test_p.py::test_count_words\n  AssertionError: assert 3 == 4\n   +  where 3 = count('a b c')",
  );
});

test('evidence, unittest: the test and the exception with what follows it', () => {
  assert.equal(failureEvidence(sample('unittest')), 'test_count (test_m.T.test_count)\n  AssertionError: 2 != 3');
  const second = sample('unittest').slice(sample('unittest').indexOf('FAIL: test_parse'));
  assert.match(
    failureEvidence(second) ?? '',
    /^test_parse \(test_m\.T\.test_parse\)\n  AssertionError: \{'name': 'a', 'size': 2\} != \{'name': 'a', 'size': 3\}\n  - \{'name': 'a', 'size': 2\}\n/,
  );
});

test('evidence: none when no failing test is named; capped in lines', () => {
  assert.equal(failureEvidence('Error: Cannot find module\n'), null);
  const long = `not ok 1 - big\n  ---\n  error: |-\n${Array.from({ length: 40 }, (_, i) => `    line ${i}`).join('\n')}\n  ...\n`;
  assert.equal(failureEvidence(long)?.split('\n').length, 12);
});
