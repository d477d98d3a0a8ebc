import assert from 'node:assert/strict';
import test from 'node:test';
import { parseTestCounts } from './test-counts.ts';

const NODE_TAP = `TAP version 13
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 1.2
  ...
# Subtest: fails
not ok 2 - fails
ok 3 - skipped # SKIP
ok 4 - todo # TODO
1..4
# tests 4
# suites 0
# pass 1
# fail 1
# cancelled 0
# skipped 1
# todo 1
# duration_ms 115.2
`;

const NODE_SPEC = `✔ adds (1.1ms)
✖ fails (2.3ms)
ℹ tests 5
ℹ suites 1
ℹ pass 2
ℹ fail 1
ℹ cancelled 1
ℹ skipped 1
ℹ todo 0
ℹ duration_ms 80.1
`;

test('node test runner: TAP summary (cancelled counts as failed, todo as skipped)', () => {
  assert.deepEqual(parseTestCounts(NODE_TAP), { passed: 1, failed: 1, skipped: 2, total: 4 });
});

test('node test runner: spec reporter summary', () => {
  assert.deepEqual(parseTestCounts(NODE_SPEC), { passed: 2, failed: 2, skipped: 1, total: 5 });
});

test('pytest: final line with rules, errors and xfail', () => {
  const output =
    'collected 7 items\n\ntest_m.py .Fs                    [100%]\n==== 1 failed, 3 passed, 1 skipped, 1 xfailed, 1 error, 2 warnings in 0.12s ====\n';
  assert.deepEqual(parseTestCounts(output), { passed: 3, failed: 2, skipped: 2, total: 7 });
});

test('pytest: -q line without rules, and "no tests ran"', () => {
  assert.deepEqual(parseTestCounts('..\n2 passed in 0.01s\n'), { passed: 2, failed: 0, skipped: 0, total: 2 });
  assert.deepEqual(parseTestCounts('===== no tests ran in 0.01s =====\n'), {
    passed: 0,
    failed: 0,
    skipped: 0,
    total: 0,
  });
});

test('unittest: OK, OK with skips, FAILED with failures and errors', () => {
  assert.deepEqual(parseTestCounts('...\n----------\nRan 3 tests in 0.003s\n\nOK\n'), {
    passed: 3,
    failed: 0,
    skipped: 0,
    total: 3,
  });
  assert.deepEqual(parseTestCounts('Ran 4 tests in 0.003s\n\nOK (skipped=1)\n'), {
    passed: 3,
    failed: 0,
    skipped: 1,
    total: 4,
  });
  assert.deepEqual(parseTestCounts('Ran 5 tests in 0.010s\n\nFAILED (failures=1, errors=1, skipped=1)\n'), {
    passed: 2,
    failed: 2,
    skipped: 1,
    total: 5,
  });
});

test('jest summary line', () => {
  const output =
    'Test Suites: 1 failed, 1 total\nTests:       1 failed, 1 skipped, 2 passed, 4 total\nSnapshots:   0 total\n';
  assert.deepEqual(parseTestCounts(output), { passed: 2, failed: 1, skipped: 1, total: 4 });
});

test('vitest summary line, colour codes stripped', () => {
  const output =
    ' Test Files  1 failed (1)\n      \x1b[2mTests\x1b[22m  \x1b[31m1 failed\x1b[39m | \x1b[32m2 passed\x1b[39m | 1 skipped (4)\n';
  assert.deepEqual(parseTestCounts(output), { passed: 2, failed: 1, skipped: 1, total: 4 });
});

test('plain TAP with a plan', () => {
  const output = 'TAP version 13\n1..4\nok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP no db\nok 4 - d\n';
  assert.deepEqual(parseTestCounts(output), { passed: 2, failed: 1, skipped: 1, total: 4 });
});

test('never guesses: output without a known summary gives null', () => {
  for (const output of [
    '',
    'hello\nworld\n',
    'ok 1 - looks like TAP but has no plan\n',
    'Error: boom\n    at x (y.js:1:1)\n',
    'all 3 tests passed\n',
  ]) {
    assert.equal(parseTestCounts(output), null, JSON.stringify(output));
  }
});

test('the last summary wins when the output holds several', () => {
  const output = `${NODE_TAP}\n...\n# tests 2\n# pass 2\n# fail 0\n`;
  assert.deepEqual(parseTestCounts(output), { passed: 2, failed: 0, skipped: 0, total: 2 });
});
