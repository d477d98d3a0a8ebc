// Planted lock files (issue 34, item 6): a FIFO `lock`, a `lock` symlinked to /dev/zero, a FIFO
// `lock.break` and an oversized `lock` each hung every writer (an open or a read that never
// returns, or 3 GB read into memory) and SIGTERM was not answered. The lock's files are opened
// no-follow and non-blocking and checked before any read: each is now a prompt exit 2 naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { CLI, scratchCourse } from '../../cli/testing.ts';

const file = (root: string, name: string) => path.join(root, '.codelabgen', name);

/**
 * A hang guard, not a budget: a process blocked in open() on a FIFO never returns, and a writer that
 * refuses takes about 0.1 s of CPU, but at nice 10 beside busy cores one took over the 20 s this was.
 * As long as cli()'s (cli/testing.ts).
 */
const HANG_MS = 180_000;

/** Runs the CLI with a hard deadline enforced by SIGKILL (a process blocked in open() on a FIFO ignores SIGTERM). */
function run(args: string[], root: string): { code: number | null; signal: string | null; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '5' };
  delete env.CODELABGEN_COURSE;
  delete env.CODELABGEN_TEST_FAULT;
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: HANG_MS,
    killSignal: 'SIGKILL',
  });
  return { code: result.status, signal: result.signal, stderr: result.stderr ?? '' };
}

/** The store's files and the folder's names (a snapshot of the course would read the planted files). */
function storeFiles(root: string): string[] {
  const dir = path.join(root, '.codelabgen');
  return [
    readdirSync(dir).sort().join(' '),
    ...['state.json', 'events.jsonl'].map((name) => readFileSync(path.join(dir, name), 'utf8')),
  ];
}

function mkfifo(target: string): void {
  const made = spawnSync('mkfifo', [target], { encoding: 'utf8' });
  assert.equal(made.status, 0, `mkfifo: ${made.stderr}`);
}

function staleLock(root: string): void {
  const dead = spawnSync(process.execPath, ['-e', '0']);
  writeFileSync(
    file(root, 'lock'),
    `${JSON.stringify({ pid: dead.pid, host: hostname(), command: 'x', acquired_at: '2026-01-01T00:00:00.000Z', start: null, token: 'deadbeefdeadbeef' })}\n`,
  );
}

const PLANTED: Array<[string, (root: string) => void, RegExp]> = [
  [
    'a FIFO lock',
    (root) => mkfifo(file(root, 'lock')),
    /^error: \.codelabgen\/lock is a named pipe \(FIFO\), not a file; codelabgen never creates it that way, so it is left alone$/,
  ],
  [
    'a lock symlinked to /dev/zero',
    (root) => symlinkSync('/dev/zero', file(root, 'lock')),
    /^error: \.codelabgen\/lock is a symbolic link, not a file; codelabgen never creates it that way, so it is left alone$/,
  ],
  [
    'a FIFO lock.break beside a stale lock',
    (root) => (staleLock(root), mkfifo(file(root, 'lock.break'))),
    /^error: \.codelabgen\/lock\.break is a named pipe \(FIFO\), not a file; codelabgen never creates it that way, so it is left alone$/,
  ],
  [
    'a 3 GB sparse lock',
    (root) => (writeFileSync(file(root, 'lock'), ''), truncateSync(file(root, 'lock'), 3 * 1024 ** 3)),
    /^error: \.codelabgen\/lock is 3221225472 bytes \(an owner record is under 1 KiB\); codelabgen never creates it that way, so it is left alone$/,
  ],
];

for (const [name, plant, message] of PLANTED) {
  test(`${name}: every writer refuses at once naming it (exit 2), nothing changed`, { timeout: 600_000 }, () => {
    const root = scratchCourse();
    plant(root);
    const before = storeFiles(root);
    for (const args of [['state', 'log', 'x'], ['state', 'rebuild'], ['report'], ['new', 'module', 'More']]) {
      const result = run(args, root);
      assert.equal(result.signal, null, `${args.join(' ')}: hung until killed: ${result.stderr}`);
      assert.equal(result.code, 2, `${args.join(' ')}: exit ${result.code}: ${result.stderr}`);
      const [first, ...rest] = result.stderr.trimEnd().split('\n');
      assert.match(first ?? '', message, args.join(' '));
      assert.deepEqual(rest, [
        `hint: if no codelabgen is running, remove ${file(root, name.includes('lock.break') ? 'lock.break' : 'lock')}, then retry`,
      ]);
    }
    assert.deepEqual(storeFiles(root), before);
  });
}
