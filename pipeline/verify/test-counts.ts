// Test counts parsed from a runner's output: node's test runner (TAP and spec reporters), pytest,
// unittest, vitest, jest, and plain TAP. Null when no format matched: counts are never guessed.
import type { TestCounts } from '../../content-schemas/index.ts';

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

type Parser = (lines: string[]) => TestCounts | null;

/** The counts of the last summary found in `output`, trying each runner's format in turn. */
export function parseTestCounts(output: string): TestCounts | null {
  const lines = output.replace(ANSI, '').split(/\r?\n/);
  for (const parser of PARSERS) {
    const counts = parser(lines);
    if (counts !== null) return counts;
  }
  return null;
}

function counts(passed: number, failed: number, skipped: number, total = passed + failed + skipped): TestCounts {
  return { passed, failed, skipped, total };
}

/** node --test: `# tests 4` / `ℹ tests 4`, then pass, fail, cancelled, skipped, todo. */
export const parseNodeTestRunner: Parser = (lines) => {
  const start = lastIndex(lines, (line) => /^(?:#|ℹ) tests \d+\s*$/.test(line));
  if (start < 0) return null;
  const values = new Map<string, number>();
  for (const line of lines.slice(start, start + 12)) {
    const match = /^(?:#|ℹ) (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)\s*$/.exec(line);
    if (match) values.set(match[1]!, Number(match[2]));
  }
  if (!values.has('pass') || !values.has('fail')) return null;
  const get = (key: string) => values.get(key) ?? 0;
  return counts(get('pass'), get('fail') + get('cancelled'), get('skipped') + get('todo'), get('tests'));
};

/** pytest: `==== 1 failed, 2 passed, 1 skipped in 0.12s ====` (or the same without the rules). */
export const parsePytest: Parser = (lines) => {
  const index = lastIndex(lines, (line) =>
    /^=*\s*(?:\d+ (?:passed|failed|skipped|errors?|xfailed|xpassed|deselected|warnings?)|no tests ran)\b.*\bin [\d.]+s\b/.test(
      line.trim(),
    ),
  );
  if (index < 0) return null;
  const found = new Map<string, number>();
  for (const match of lines[index]!.matchAll(/(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)\b/g))
    found.set(match[2] === 'errors' ? 'error' : match[2]!, Number(match[1]));
  const get = (key: string) => found.get(key) ?? 0;
  return counts(get('passed') + get('xpassed'), get('failed') + get('error'), get('skipped') + get('xfailed'));
};

/** unittest: `Ran 3 tests in 0.003s`, then `OK`, `OK (skipped=1)` or `FAILED (failures=1, errors=1)`. */
export const parseUnittest: Parser = (lines) => {
  const index = lastIndex(lines, (line) => /^Ran \d+ tests? in [\d.]+s$/.test(line.trim()));
  if (index < 0) return null;
  const total = Number(/\d+/.exec(lines[index]!)![0]);
  const verdict = lines.slice(index + 1).find((line) => /^(OK|FAILED)\b/.test(line.trim()));
  if (verdict === undefined) return null;
  const get = (key: string) => Number(new RegExp(`\\b${key}=(\\d+)`).exec(verdict)?.[1] ?? 0);
  const failed = get('failures') + get('errors') + get('unexpected successes');
  const skipped = get('skipped') + get('expected failures');
  return counts(Math.max(0, total - failed - skipped), failed, skipped, total);
};

/** jest: `Tests:       1 failed, 1 skipped, 2 passed, 4 total`. */
export const parseJest: Parser = (lines) => {
  const index = lastIndex(lines, (line) => /^Tests:\s+.*\d+ total\s*$/.test(line.trim()));
  if (index < 0) return null;
  const line = lines[index]!;
  const get = (key: string) => Number(new RegExp(`(\\d+) ${key}\\b`).exec(line)?.[1] ?? 0);
  return counts(get('passed'), get('failed'), get('skipped') + get('todo') + get('pending'), get('total'));
};

/** vitest: `Tests  1 failed | 2 passed | 1 skipped (4)`. */
export const parseVitest: Parser = (lines) => {
  const index = lastIndex(lines, (line) =>
    /^Tests\s+.*\d+ (?:passed|failed|skipped|todo).*\(\d+\)\s*$/.test(line.trim()),
  );
  if (index < 0) return null;
  const line = lines[index]!;
  const get = (key: string) => Number(new RegExp(`(\\d+) ${key}\\b`).exec(line)?.[1] ?? 0);
  return counts(
    get('passed'),
    get('failed'),
    get('skipped') + get('todo'),
    Number(/\((\d+)\)\s*$/.exec(line.trim())![1]),
  );
};

/** Plain TAP: a `1..N` plan and top-level `ok` / `not ok` lines (`# SKIP`/`# TODO` count as skipped). */
export const parseTap: Parser = (lines) => {
  if (!lines.some((line) => /^1\.\.\d+\b/.test(line))) return null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const line of lines) {
    const match = /^(not )?ok\b(.*)$/.exec(line);
    if (!match) continue;
    if (/#\s*(skip|todo)\b/i.test(match[2]!)) skipped += 1;
    else if (match[1]) failed += 1;
    else passed += 1;
  }
  return passed + failed + skipped === 0 && !lines.some((line) => /^1\.\.0\b/.test(line))
    ? null
    : counts(passed, failed, skipped);
};

const PARSERS: Parser[] = [parseNodeTestRunner, parsePytest, parseUnittest, parseJest, parseVitest, parseTap];

function lastIndex(lines: string[], test: (line: string) => boolean): number {
  for (let index = lines.length - 1; index >= 0; index -= 1) if (test(lines[index]!)) return index;
  return -1;
}
