// Store files that are not what codelabgen writes: `lock`, `lock.break`, `state.json` or
// `events.jsonl` as a folder, and a full disk while a torn line is copied aside. Each is a refusal
// (exit 2, one `error:` line naming the file), never a stack trace, and changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { cli, readEvents, scratchCourse, snapshot, type CliResult } from '../../cli/testing.ts';

const file = (root: string, name: string) => path.join(root, '.codelabgen', name);

function assertRefused(result: CliResult, message: RegExp, what: string): void {
  assert.equal(result.code, 2, `${what}: expected exit 2, got ${result.code} ${result.signal ?? ''}: ${result.stderr}`);
  const [first, ...rest] = result.stderr.trimEnd().split('\n');
  assert.match(first ?? '', message, what);
  assert.ok(
    rest.every((line) => line.startsWith('hint: ')),
    `${what}: ${result.stderr}`,
  );
}

function staleLock(root: string): void {
  const dead = spawnSync(process.execPath, ['-e', '0']);
  writeFileSync(
    file(root, 'lock'),
    `${JSON.stringify({ pid: dead.pid, host: hostname(), command: 'x', acquired_at: '2026-01-01T00:00:00.000Z', start: null, token: 'deadbeefdeadbeef' })}\n`,
  );
}

/** Puts a folder where the file was (the file's bytes kept beside it). */
function swapForFolder(root: string, name: string): void {
  renameSync(file(root, name), file(root, `${name}.moved`));
  mkdirSync(file(root, name));
}

const FOLDERS: Array<[string, (root: string) => void, string[][], RegExp]> = [
  [
    'lock',
    (root) => mkdirSync(file(root, 'lock')),
    [
      ['state', 'log', 'x'],
      ['state', 'rebuild'],
    ],
    /^error: \.codelabgen\/lock is a folder, not a file; codelabgen never creates it that way, so it is left alone$/,
  ],
  [
    'lock.break',
    (root) => (staleLock(root), mkdirSync(file(root, 'lock.break'))),
    [
      ['state', 'log', 'x'],
      ['state', 'rebuild'],
    ],
    /^error: \.codelabgen\/lock\.break is a folder, not a file; codelabgen never creates it that way, so it is left alone$/,
  ],
  [
    'state.json',
    (root) => swapForFolder(root, 'state.json'),
    [
      ['state', 'show'],
      ['state', 'log', 'x'],
      ['state', 'rebuild'],
    ],
    /^error: \.codelabgen\/state\.json is a folder, not a file; nothing was changed$/,
  ],
  [
    'events.jsonl',
    (root) => swapForFolder(root, 'events.jsonl'),
    [
      ['state', 'show'],
      ['state', 'log', 'x'],
      ['state', 'rebuild'],
    ],
    /^error: \.codelabgen\/events\.jsonl is a folder, not a file; nothing was changed$/,
  ],
];

for (const [name, make, commands, message] of FOLDERS) {
  test(`${name} is a folder: every command that uses it refuses naming it (exit 2), nothing changed`, () => {
    const root = scratchCourse();
    assert.equal(cli(['state', 'log', 'acked'], { cwd: root }).code, 0);
    make(root);
    const before = snapshot(root);
    for (const args of commands)
      assertRefused(
        cli(args, { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } }),
        message,
        `${name}: ${args.join(' ')}`,
      );
    const check = cli(['check'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } });
    assert.ok(check.code !== null && [0, 1, 2].includes(check.code), `check: exit ${check.code}: ${check.stderr}`);
    assert.doesNotMatch(check.stderr, /internal error|\n\s+at /, 'no stack trace');
    assert.deepEqual(snapshot(root), before);
  });
}

test('disk full while a torn last line is copied aside: refused each try, no empty events.jsonl.torn-* left, then recovered', () => {
  const root = scratchCourse();
  assert.equal(cli(['state', 'log', 'acked'], { cwd: root }).code, 0);
  appendFileSync(file(root, 'events.jsonl'), '{"seq":3,"ts":"2026-');
  const before = snapshot(root);
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = cli(['state', 'log', 'x'], { cwd: root, env: { CODELABGEN_TEST_FAULT: 'enospc@torn-write' } });
    assertRefused(
      result,
      new RegExp(
        String.raw`^error: cannot write \.codelabgen\/events\.jsonl\.torn-\d+ \(the copy of a torn last line of ` +
          String.raw`\.codelabgen\/events\.jsonl\): no space left on device \(ENOSPC\); nothing was changed$`,
      ),
      `try ${attempt + 1}`,
    );
    assert.deepEqual(
      readdirSync(path.join(root, '.codelabgen')).filter((entry) => entry.startsWith('events.jsonl.torn-')),
      [],
    );
    assert.deepEqual(snapshot(root), before);
  }
  const freed = cli(['state', 'log', 'x'], { cwd: root });
  assert.equal(freed.code, 0, freed.stderr);
  assert.match(freed.stderr, /moved to \.codelabgen\/events\.jsonl\.torn-\d+/);
  assert.deepEqual(
    readEvents(root).map((event) => event.seq),
    [1, 2, 3],
  );
});
