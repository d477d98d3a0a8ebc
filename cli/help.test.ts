// --help on every command of the table (new commands are covered automatically), the main help,
// and usage errors: exit 2 with exactly one `error:` line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMANDS } from './commands.ts';
import { usageLine } from './help.ts';
import { cli, removeDir, snapshot, tempDir } from './testing.ts';

test('codelabgen --help lists every command of the table', () => {
  const result = cli(['--help']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.match(result.stdout, /^codelabgen \S+: course state protocol/);
  for (const spec of COMMANDS)
    assert.match(
      result.stdout,
      new RegExp(`^  ${spec.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'm'),
      `${spec.name} missing from --help`,
    );
  assert.match(result.stdout, /Exit codes: 0 done, 1 check failed, 2 refused/);
  assert.deepEqual(cli([]).stdout, result.stdout, 'no arguments prints the same help');
});

test('--version prints the package version', () => {
  const result = cli(['--version']);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
});

// Help runs outside any course and must never touch the working directory.
test('every command in cli/commands.ts answers --help and -h without a course', () => {
  const cwd = tempDir();
  try {
    for (const spec of COMMANDS) {
      const words = spec.name.split(' ');
      for (const flag of ['--help', '-h']) {
        const result = cli([...words, flag], { cwd });
        assert.equal(result.code, 0, `${spec.name} ${flag}: ${result.stderr}`);
        assert.equal(result.stderr, '', `${spec.name} ${flag} wrote to stderr`);
        assert.ok(
          result.stdout.startsWith(`usage: ${usageLine(spec)}\n`),
          `${spec.name} ${flag}: ${result.stdout.split('\n')[0]}`,
        );
        assert.match(result.stdout, /\n  -h, --help +show this help\n/);
        if (spec.needsCourse !== false) assert.match(result.stdout, /--course DIR/, `${spec.name} help lacks --course`);
        for (const option of Object.keys(spec.options ?? {}))
          assert.match(result.stdout, new RegExp(`--${option}\\b`), `${spec.name} help lacks --${option}`);
        for (const file of unshippedFiles(result.stdout))
          assert.fail(
            `${spec.name} ${flag} points at ${file}, which the installed package does not ship (package.json "files")`,
          );
      }
    }
    assert.equal(snapshot(cwd).size, 0, 'help wrote files');
  } finally {
    removeDir(cwd);
  }
});

const SHIPPED = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { files: string[] }
).files.filter((entry) => !entry.startsWith('!'));

/** Files of this repository a help text names (docs/verify.md, scripts/x.ts, ...) that are outside package.json "files". */
function unshippedFiles(text: string): string[] {
  const named = text.match(/(?<![\w./-])(?:[\w-]+\/)+[\w-]+\.(?:md|ts|mjs|cjs|json|ya?ml)\b/g) ?? [];
  return named.filter(
    (file) =>
      existsSync(path.join(import.meta.dirname, '..', file)) &&
      !SHIPPED.some((entry) => file === entry || file.startsWith(`${entry}/`)),
  );
}

test('unshippedFiles names repository files outside package.json "files" only', () => {
  assert.deepEqual(
    unshippedFiles(
      'See docs/verify.md and docs/readalong.md; .codelabgen/config.yaml; pipeline/report/report.ts; bin/codelabgen.cjs, templates/ci/github-pages.yml',
    ),
    ['docs/verify.md', 'pipeline/report/report.ts'],
  );
});

function assertUsageError(args: string[], message: RegExp): void {
  const result = cli(args);
  assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `expected one line, got:\n${result.stderr}`);
  assert.match(lines[0] ?? '', message);
}

test('an unknown command exits 2 with one error line', () => {
  assertUsageError(['bogus'], /^error: unknown command "bogus"; run "codelabgen --help" for the list$/);
  assertUsageError(['state', 'bogus'], /^error: unknown command "state bogus"; "state" takes: .*\bshow\b.*\blog\b/);
});

test('an unknown option exits 2 with one clear error line', () => {
  assertUsageError(
    ['state', 'show', '--bogus'],
    /^error: state show: unknown option '--bogus' \(see "codelabgen state show --help"\)$/,
  );
  assertUsageError(
    ['schema', 'list', '-x'],
    /^error: schema list: unknown option '-x' \(see "codelabgen schema list --help"\)$/,
  );
  assertUsageError(
    ['init', '--title'],
    /^error: init: option '--title <value>' argument missing \(see "codelabgen init --help"\)$/,
  );
  assertUsageError(['state', 'show', '--json=yes'], /^error: state show: option '--json' does not take an argument/);
  assertUsageError(['init', 'x', '--title', '--json'], /^error: init: option '--title' argument is ambiguous \(see/);
});

test('wrong positionals exit 2 with one error line', () => {
  assertUsageError(
    ['state', 'log'],
    /^error: state log: expected <kind>, got none \(see "codelabgen state log --help"\)$/,
  );
  assertUsageError(['schema', 'show', 'a', 'b'], /^error: schema show: expected <name>, got "a b"/);
  assertUsageError(['state', 'show', 'extra'], /^error: state show: expected no arguments, got "extra"/);
});
