// Disk faults: ENOSPC/EIO at each write step (fault seam), a real full disk (a tiny tmpfs, where
// mounting is allowed), and a read-only course directory (as a non-root user). Each ends with one
// `error: cannot write ...` line, state.json and events.jsonl byte-identical, the lock released.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  REPO_ROOT,
  cli,
  readEvents,
  readState,
  removeDir,
  ackedCourse,
  scratchDir,
  sharedCourseTemplate,
  snapshot,
  exists,
  tempDir,
  type CliResult,
} from '../../cli/testing.ts';

/** A course with one acknowledged `state log` event after init (a copy of one made per run). */
const course = (): string => ackedCourse(1);

function storeFiles(root: string): Buffer[] {
  return ['state.json', 'events.jsonl'].map((name) => readFileSync(path.join(root, '.codelabgen', name)));
}

function debris(root: string): string[] {
  return readdirSync(path.join(root, '.codelabgen')).filter((name) => name.startsWith('lock') || name.endsWith('.tmp'));
}

function assertCannotWrite(result: CliResult, message: RegExp): void {
  assert.equal(result.code, 2, `expected exit 2, got ${result.code} ${result.signal ?? ''}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.match(lines[0] ?? '', message);
  assert.equal(lines.filter((line) => line.startsWith('error: ')).length, 1);
  assert.ok(
    lines.slice(1).every((line) => line.startsWith('hint: ')),
    result.stderr,
  );
}

const SEAM: Array<[string, RegExp]> = [
  [
    'enospc@event-write',
    /^error: cannot write \.codelabgen\/events\.jsonl: no space left on device \(ENOSPC\); nothing was changed$/,
  ],
  [
    'eio@event-fsync',
    /^error: cannot write \.codelabgen\/events\.jsonl: input\/output error \(EIO\); nothing was changed$/,
  ],
  [
    'enospc@temp-write',
    /^error: cannot write \.codelabgen\/state\.json: no space left on device \(ENOSPC\); nothing was changed$/,
  ],
  ['eio@rename', /^error: cannot write \.codelabgen\/state\.json: input\/output error \(EIO\); nothing was changed$/],
];

for (const [fault, message] of SEAM) {
  test(`${fault}: exit 2 with one error line, state and log byte-identical, lock released`, () => {
    const root = course();
    const before = snapshot(root);
    const result = cli(['state', 'log', 'victim', '--data', `v=${'x'.repeat(10_000)}`], {
      cwd: root,
      env: { CODELABGEN_TEST_FAULT: fault },
    });
    assertCannotWrite(result, message);
    assert.deepEqual(snapshot(root), before, 'nothing changed: no partial event, no temp file, no lock');
    const next = cli(['state', 'log', 'after'], { cwd: root, env: { CODELABGEN_LOCK_TIMEOUT: '0' } });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stderr, '', 'nothing to recover');
    assert.deepEqual(
      readEvents(root).map((event) => event.fact ?? event.kind),
      ['course.init', 'acked', 'after'],
    );
    assert.equal(cli(['check'], { cwd: root }).code, 0);
  });
}

/** Mounts a tmpfs of `size` at a new folder, or returns why it cannot. */
function mountTmpfs(size: string): { dir: string } | { skip: string } {
  if (process.platform !== 'linux') return { skip: 'tmpfs needs Linux' };
  const dir = tempDir('codelabgen-tmpfs-');
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], {
    encoding: 'utf8',
  });
  if (mounted.status !== 0) {
    removeDir(dir);
    return {
      skip: `cannot mount a tmpfs here (${(mounted.stderr || mounted.error?.message || 'mount failed').trim()})`,
    };
  }
  return { dir };
}

test('a real full disk (tiny tmpfs): the write is refused, nothing partial is left, and it works once space is freed', (t) => {
  const mount = mountTmpfs('1m');
  if ('skip' in mount) {
    console.log(`skipped the real full-disk test: ${mount.skip}`);
    t.skip(mount.skip);
    return;
  }
  try {
    const root = path.join(mount.dir, 'course');
    assert.equal(cli(['init', root, '--title', 'Full disk']).code, 0);
    const filler = path.join(mount.dir, 'filler');
    const { bavail, bsize } = statfsSync(mount.dir);
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 3 * bsize))); // leave three pages
    const before = snapshot(root);
    const [state, events] = storeFiles(root);
    const result = cli(['state', 'log', 'big', '--data', `v=${'x'.repeat(60_000)}`], { cwd: root });
    assertCannotWrite(
      result,
      /^error: cannot write \.codelabgen\/(events\.jsonl|state\.json|lock \(the course lock\)): no space left on device \(ENOSPC\); nothing was changed$/,
    );
    assert.deepEqual(storeFiles(root), [state, events], 'state.json and events.jsonl byte-identical');
    assert.deepEqual(debris(root), []);
    assert.deepEqual(snapshot(root), before);
    rmSync(filler);
    assert.equal(cli(['state', 'log', 'big', '--data', `v=${'x'.repeat(60_000)}`], { cwd: root }).code, 0);
    assert.equal(cli(['check'], { cwd: root }).code, 0);
  } finally {
    spawnSync('umount', [mount.dir]);
    removeDir(mount.dir);
  }
});

const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups'];

/**
 * The node binary and the built CLI copied into a temp folder everyone can read, so that `nobody`
 * can run them even when the checkout sits in a folder only its owner may enter (a 0700 temp dir).
 */
function nobodyRunner(): { node: string; cli: string } | { skip: string } {
  const dir = scratchDir('codelabgen-nobody-');
  chmodSync(dir, 0o755);
  const node = path.join(dir, 'node');
  try {
    linkSync(process.execPath, node);
  } catch {
    copyFileSync(process.execPath, node); // another filesystem: a hard link is impossible
  }
  for (const folder of ['bin', 'dist'])
    cpSync(path.join(REPO_ROOT, folder), path.join(dir, folder), { recursive: true });
  const probe = spawnSync('setpriv', [...NOBODY, node, path.join(dir, 'bin', 'codelabgen.cjs'), '--version'], {
    encoding: 'utf8',
  });
  if (probe.status !== 0)
    return {
      skip: `running as root and cannot run the CLI as nobody (${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim()})`,
    };
  return { node, cli: path.join(dir, 'bin', 'codelabgen.cjs') };
}

/** Runs the CLI as user nobody through `runner` when given (we are root), else as ourselves. */
function cliAs(runner: { node: string; cli: string } | null, args: string[], cwd: string): CliResult {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    CODELABGEN_LOCK_TIMEOUT: '5',
    NODE_COMPILE_CACHE: '',
  };
  delete env.CODELABGEN_COURSE;
  delete env.CODELABGEN_TEST_FAULT;
  const [command, prefix] = runner
    ? ['setpriv', [...NOBODY, runner.node, runner.cli]]
    : [process.execPath, [path.join(REPO_ROOT, 'bin', 'codelabgen.cjs')]];
  const result = spawnSync(command, [...prefix, ...args], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

test('a read-only course directory: a clear error and nothing changed', (t) => {
  const isRoot = process.getuid?.() === 0;
  const runner = isRoot ? nobodyRunner() : null;
  if (runner && 'skip' in runner) {
    console.log(`skipped the read-only course test: ${runner.skip}`);
    t.skip(runner.skip);
    return;
  }
  const base = scratchDir('codelabgen-ro-');
  const root = path.join(base, 'course');
  mkdirSync(root);
  assert.equal(cli(['init', root, '--title', 'Read only']).code, 0);
  // As root: the files stay root's and the folders are world-readable, so nobody can read, not write.
  // As a user: take write permission away from the course folders.
  for (const dir of [base, root, path.join(root, '.codelabgen')]) chmodSync(dir, isRoot ? 0o755 : 0o555);
  try {
    const before = snapshot(root);
    const show = cliAs(runner, ['state', 'show', '--json'], root);
    assert.equal(show.code, 0, `reading works: ${show.stderr}`);
    const result = cliAs(runner, ['state', 'log', 'x'], root);
    assertCannotWrite(
      result,
      /^error: cannot write \.codelabgen\/lock \(the course lock\): permission denied \(EACCES\); nothing was changed$/,
    );
    assert.deepEqual(snapshot(root), before);
  } finally {
    for (const dir of [base, root, path.join(root, '.codelabgen')]) chmodSync(dir, 0o755);
  }
});

/** Fills the tmpfs at `dir` so that `pages` pages stay free; returns the filler's path. */
function fillLeaving(dir: string, pages: number): string {
  const filler = path.join(dir, 'filler');
  const { bavail, bsize } = statfsSync(dir);
  writeFileSync(filler, Buffer.alloc(Math.max(0, (bavail - pages) * bsize)));
  return filler;
}

function staging(root: string): string[] {
  return readdirSync(path.join(root, '.codelabgen')).filter((name) => name.startsWith('change.'));
}

test('a full disk during new lesson / report / verify: exit 2 naming the file, nothing changed, and each works once space is freed', {
  timeout: 300_000,
}, (t) => {
  const mount = mountTmpfs('2m');
  if ('skip' in mount) {
    console.log(`skipped the full-disk change test: ${mount.skip}`);
    t.skip(mount.skip);
    return;
  }
  try {
    const root = path.join(mount.dir, 'course');
    const made = cli(['init', root, '--title', 'Full disk', '--example']);
    assert.equal(made.code, 0, made.stderr);
    const cases: Array<{ args: string[]; pages: number; message: RegExp }> = [
      {
        args: ['new', 'lesson', '1', 'Second'],
        pages: 3,
        message: new RegExp(
          String.raw`^error: cannot write (\.codelabgen/curriculum\.yaml|1-first-steps/1\.2-second/\S+|\.codelabgen/lessons/1\.2/spec\.yaml): ` +
            String.raw`no space left on device \(ENOSPC\); nothing was changed$`,
        ),
      },
      {
        args: ['report'],
        pages: 1,
        message:
          /^error: cannot write \.codelabgen\/(report\.json|report\.md|lock \(the course lock\)): no space left on device \(ENOSPC\); nothing was changed$/,
      },
      {
        args: ['verify', '1.1'],
        pages: 0,
        message:
          /^error: cannot write \.codelabgen\/(runs\/1\.1\/1\.json|runs\/1\.1): no space left on device \(ENOSPC\); nothing was changed$/,
      },
    ];
    for (const { args, pages, message } of cases) {
      const filler = fillLeaving(mount.dir, pages);
      const before = snapshot(root);
      const result = cli(args, { cwd: root });
      assertCannotWrite(result, message);
      assert.deepEqual(snapshot(root), before, `${args.join(' ')}: nothing changed`);
      assert.deepEqual(staging(root), [], `${args.join(' ')}: no staging folder left`);
      if (args[0] === 'new') {
        // The failed change left no lesson folder behind for a later register to pick up.
        assert.equal(cli(['register'], { cwd: root }).code, 0);
        assert.equal((readState(root).lessons as Record<string, unknown>)['1.2'], undefined);
      }
      rmSync(filler);
      const again = cli(args, { cwd: root });
      assert.equal(again.code, 0, `${args.join(' ')} once space is freed: ${again.stderr}`);
    }
    assert.notEqual(cli(['check'], { cwd: root }).code, 3);
  } finally {
    spawnSync('umount', [mount.dir]);
    removeDir(mount.dir);
  }
});

test('a read-only file system (EROFS): report and verify exit 2 naming what they cannot write', {
  timeout: 120_000,
}, (t) => {
  const mount = mountTmpfs('4m');
  if ('skip' in mount) {
    console.log(`skipped the read-only file system test: ${mount.skip}`);
    t.skip(mount.skip);
    return;
  }
  try {
    const root = path.join(mount.dir, 'course');
    assert.equal(cli(['init', root, '--title', 'Read only', '--example']).code, 0);
    const remounted = spawnSync('mount', ['-o', 'remount,ro', mount.dir], { encoding: 'utf8' });
    assert.equal(remounted.status, 0, remounted.stderr);
    const before = snapshot(root);
    for (const args of [['report'], ['verify', '1.1'], ['new', 'lesson', '1', 'Second']]) {
      assertCannotWrite(
        cli(args, { cwd: root }),
        /^error: cannot write \.codelabgen\/\S+( \(the course lock\))?: read-only file system \(EROFS\); nothing was changed$/,
      );
    }
    assert.deepEqual(snapshot(root), before);
  } finally {
    spawnSync('umount', [mount.dir]);
    removeDir(mount.dir);
  }
});

// Where no tmpfs can be mounted, the same refusals through the fault seam: ENOSPC while a change's
// files are staged (CODELABGEN_TEST_FAULT=enospc@change-stage).
for (const args of [['new', 'lesson', '1', 'Second'], ['report'], ['init', 'fresh', '--title', 'Fresh', '--example']]) {
  test(`enospc@change-stage: ${args.join(' ')} exits 2 naming the file, nothing changed`, { timeout: 120_000 }, () => {
    const base = scratchDir('codelabgen-seam-');
    const root = path.join(base, 'course');
    // `init --example` made once per run, copied here.
    const example = sharedCourseTemplate('init Seam --example', (dir) => {
      const made = cli(['init', dir, '--title', 'Seam', '--example']);
      if (made.code !== 0) throw new Error(`init --example failed: ${made.stderr}`);
    });
    cpSync(example, root, { recursive: true });
    const before = snapshot(base);
    const result = cli(args, { cwd: root, env: { CODELABGEN_TEST_FAULT: 'enospc@change-stage' } });
    assertCannotWrite(result, /^error: cannot write \S+: no space left on device \(ENOSPC\); nothing was changed$/);
    assert.deepEqual(snapshot(base), before);
    assert.deepEqual(staging(root), []);
    if (args[0] === 'init') assert.equal(exists(path.join(root, 'fresh')), false, 'init left nothing behind');
  });
}
