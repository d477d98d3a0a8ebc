// verify merge over untrusted shard artifacts: the folder decides the lesson, future times are
// refused, symlinks are not followed, and errors never quote a file's contents.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { cli, scratchDir } from './testing.ts';

const HASH = `sha256:${'0'.repeat(64)}`;

function runResult(lesson: string, run: number, passed: boolean, startedAt: string): Record<string, unknown> {
  return {
    schema_version: 1,
    lesson,
    run,
    runtime: 'node',
    argv: ['node', '--test'],
    cwd: `1-m/${lesson}-x`,
    started_at: startedAt,
    duration_ms: 10,
    exit_code: passed ? 0 : 1,
    signal: null,
    timed_out: false,
    passed,
    tests: { passed: passed ? 1 : 0, failed: passed ? 0 : 1, skipped: 0, total: 1 },
    output_tail: '',
    output_bytes: 0,
    output_truncated: false,
    code_hash: HASH,
    cause: passed ? null : 'tests failed',
  };
}

function writeRun(dir: string, folder: string, run: number, result: Record<string, unknown>): void {
  mkdirSync(path.join(dir, folder), { recursive: true });
  writeFileSync(path.join(dir, folder, `${run}.json`), `${JSON.stringify(result)}\n`);
}

/** Two shards: 1.1 failed in the first, 2.9 passed in the second. */
function shards(): { first: string; second: string } {
  const root = scratchDir('codelabgen-merge-');
  const first = path.join(root, 'shard-1');
  const second = path.join(root, 'shard-2');
  writeRun(first, '1.1', 1, runResult('1.1', 1, false, '2026-01-01T10:00:00.000Z'));
  writeRun(second, '2.9', 1, runResult('2.9', 1, true, '2026-01-01T10:00:00.000Z'));
  return { first, second };
}

test('verify merge: a run file claiming another lesson than its folder is refused, not counted for that lesson', () => {
  const { first, second } = shards();
  writeRun(second, '2.9', 2, runResult('1.1', 2, true, '2026-01-01T11:00:00.000Z'));
  const merged = cli(['verify', 'merge', first, second]);
  assert.equal(merged.code, 2, merged.stdout);
  assert.match(
    merged.stderr,
    new RegExp(
      String.raw`^error: verify merge: .*shard-2\/2\.9\/2\.json: its "lesson" field names another lesson than its folder ` +
        String.raw`2\.9; a run-result belongs in its lesson's folder\n$`,
    ),
  );
});

test('verify merge: a run started in the future is refused', () => {
  const { first, second } = shards();
  writeRun(second, '1.1', 7, runResult('1.1', 7, true, '2999-01-01T00:00:00.000Z'));
  const merged = cli(['verify', 'merge', first, second, '--json']);
  assert.equal(merged.code, 2, merged.stdout);
  assert.match(
    merged.stderr,
    /^error: verify merge: .*shard-2\/1\.1\/7\.json: started_at is in the future; a run-result records a run that happened\n$/,
  );
});

test('verify merge: a symlinked run file or lesson folder is not followed and its target is never quoted', () => {
  const { first, second } = shards();
  const secret = path.join(path.dirname(first), 'secret.txt');
  writeFileSync(secret, 'root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n');
  symlinkSync(secret, path.join(second, '2.9', '2.json'));
  const viaFile = cli(['verify', 'merge', first, second]);
  assert.equal(viaFile.code, 2);
  assert.match(
    viaFile.stderr,
    /^error: .*shard-2\/2\.9\/2\.json: is a symbolic link; run-results are regular files\n$/,
  );
  assert.doesNotMatch(viaFile.stderr + viaFile.stdout, /root|SECRET/);
  const third = path.join(path.dirname(first), 'shard-3');
  mkdirSync(third);
  symlinkSync(path.join(first, '1.1'), path.join(third, '3.1'));
  const viaFolder = cli(['verify', 'merge', third]);
  assert.equal(viaFolder.code, 2);
  assert.match(
    viaFolder.stderr,
    /^error: verify merge: .*shard-3\/3\.1 is a symbolic link; run-result folders are copied as real folders\n$/,
  );
});

test('verify merge: a run file that is not JSON or not a run-result is named by file and field, without its contents', () => {
  const { first, second } = shards();
  writeFileSync(path.join(second, '2.9', '2.json'), 'root:$y$j9T$SECRETHASH:19000\n');
  const notJson = cli(['verify', 'merge', first, second]);
  assert.equal(notJson.code, 2);
  assert.match(
    notJson.stderr,
    /^error: .*shard-2\/2\.9\/2\.json: not valid JSON; a run-result is a JSON file written by codelabgen verify\n$/,
  );
  writeFileSync(
    path.join(second, '2.9', '2.json'),
    JSON.stringify({ ...runResult('2.9', 2, true, '2026-01-01T11:00:00.000Z'), cwd: 7, SECRETKEY: 1 }),
  );
  const badFields = cli(['verify', 'merge', first, second]);
  assert.equal(badFields.code, 2);
  assert.doesNotMatch(badFields.stderr, /SECRET/);
  assert.match(
    badFields.stderr,
    /^error: .*shard-2\/2\.9\/2\.json: (cwd|\(top level\)): [^\n]*\(and 1 more problem\)\n/,
  );
});
