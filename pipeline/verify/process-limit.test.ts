// The process-count limit of every lesson step (verify.max_processes), end to end through the built
// CLI: a test that starts more processes than the limit is refused the rest and fails naming the
// limit; a fork bomb in a lesson's postinstall ends in a failed run, not a machine out of processes.
// As root the limit is a pids cgroup; as another user (run here through setpriv) it is RLIMIT_NPROC
// inside the sandbox's own user namespace.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { CLI, cli, REPO_ROOT, repoForOtherUsers } from '../../cli/testing.ts';
import type { Course } from '../course/course.ts';
import { courseWithLessons, registeredLesson } from './fixtures.ts';
import { MACHINE_PROBES } from './runtime.ts';
import { findBwrap, probeBwrap } from './sandbox.ts';

const bwrap = findBwrap(process.env, MACHINE_PROBES.isExecutable);
const usable = bwrap !== null && probeBwrap(bwrap).usable;
const needsBwrap = {
  timeout: 120_000,
  skip: usable ? false : 'bubblewrap is not usable here; install it (apt-get install bubblewrap) to run this test',
};
/** Another user to run the CLI as (RLIMIT_NPROC binds every user but root): only when this test runs as root. */
const OTHER_UID = 1001;
/** This process's cgroup in cgroup v1's pids hierarchy (where codelabgen makes its step cgroups as root), or null. */
const PIDS_ROOT = (() => {
  const line = /^\d+:pids:(\/.*)$/m.exec(
    existsSync('/proc/self/cgroup') ? readFileSync('/proc/self/cgroup', 'utf8') : '',
  );
  return line?.[1] === undefined ? null : path.join('/sys/fs/cgroup/pids', line[1]);
})();
const setpriv = spawnSync('setpriv', ['--version']).status === 0 && process.getuid?.() === 0;
/** The CLI and Node as another user can reach them (a checkout in a 0700 folder cannot be). */
const forOthers = setpriv ? repoForOtherUsers() : null;
const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** Starts 100 background sleeps, one at a time; exits 3 naming the first that could not start. */
const HUNDRED_PROCESSES = `i=0
while [ $i -lt 100 ]; do
  sleep 30 &
  i=$((i+1))
done
echo "started $i processes"
`;

/** The machine's setting that runs lesson tests without the sandbox (a course's verify.sandbox: off runs as auto). */
const UNSANDBOXED = { CODELABGEN_SANDBOX: 'off' };

async function boundedCourse(sandbox = 'required'): Promise<Course> {
  const made = await courseWithLessons(
    [
      {
        id: '1.1',
        files: { 'many.sh': HUNDRED_PROCESSES },
        spec: 'lesson: "1.1"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [sh, many.sh]\n',
      },
    ],
    `verify:\n  sandbox: ${sandbox}\n  max_processes: 32\n`,
  );
  scratch.push(path.dirname(made.root));
  return made;
}

function assertLimited(stdout: string, stderr: string, code: number | null): void {
  assert.equal(code, 1, `${stdout}\n${stderr}`);
  const run = JSON.parse(stdout) as Record<string, any>;
  assert.equal(run.passed, false);
  assert.doesNotMatch(run.output_tail, /started 100 processes/);
  assert.match(
    run.cause,
    /^the lesson's programs reached the process limit \(max_processes: 32 processes and threads at once;/,
  );
}

let limited = false;

test(
  'a test that starts 100 processes under max_processes: 32 is refused the rest and fails naming the limit (as this user)',
  needsBwrap,
  async () => {
    const made = await boundedCourse();
    const result = cli(['verify', '1.1', '--json', '--timeout', '20', '--course', made.root], {
      timeoutMs: 60_000,
    });
    assertLimited(result.stdout, result.stderr, result.code);
    limited = true;
  },
);

test('the same as another user than root: RLIMIT_NPROC inside the sandbox counts only its own processes', {
  ...needsBwrap,
  skip:
    needsBwrap.skip ||
    (forOthers !== null ? false : 'needs root, setpriv and a checkout (or copy) another user can read'),
}, async () => {
  const made = await boundedCourse();
  const top = path.dirname(made.root);
  chownTree(top, OTHER_UID);
  const result = await runAs(OTHER_UID, ['verify', '1.1', '--json', '--timeout', '20', '--course', made.root]);
  assertLimited(result.stdout, result.stderr, result.code);
});

test('as root the limit holds without the sandbox too (the pids cgroup wraps the step)', {
  timeout: 120_000,
  skip: process.getuid?.() === 0 ? false : 'RLIMIT_NPROC needs the sandbox; the cgroup needs root',
}, async () => {
  const made = await boundedCourse('auto');
  const result = cli(['verify', '1.1', '--json', '--timeout', '20', '--course', made.root], {
    timeoutMs: 60_000,
    env: UNSANDBOXED,
  });
  assert.equal(JSON.parse(result.stdout).sandbox, 'none');
  assertLimited(result.stdout, result.stderr, result.code);
});

test('the cgroup of a codelabgen that is gone (killed before its cleanup) is removed by the next step', {
  timeout: 120_000,
  skip:
    process.getuid?.() === 0 && PIDS_ROOT !== null && existsSync(PIDS_ROOT) ? false : 'needs root and cgroup v1 pids',
}, async () => {
  const gone = spawnSync('true').pid; // a process that has ended: its pid names no live codelabgen
  const stale = path.join(PIDS_ROOT!, `codelabgen-step.${gone}.0123456789abcdef0`);
  mkdirSync(stale);
  try {
    const made = await boundedCourse('auto');
    cli(['verify', '1.1', '--json', '--timeout', '20', '--course', made.root], { timeoutMs: 60_000, env: UNSANDBOXED });
    assert.equal(existsSync(stale), false, 'the stale cgroup was left');
  } finally {
    if (existsSync(stale)) rmdirSync(stale);
  }
});

test('a fork bomb in a postinstall ends in a failed run naming the process limit', needsBwrap, async () => {
  // Never run an unbounded fork bomb where the limit was not seen to hold.
  assert.ok(limited, 'the limit did not hold for 100 processes: the fork bomb is not run');
  const manifest = {
    name: 'bomb',
    version: '1.0.0',
    private: true,
    scripts: { test: 'node --test', postinstall: 'bash bomb.sh' },
  };
  const lock = {
    name: 'bomb',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'bomb', version: '1.0.0', hasInstallScript: true } },
  };
  const made = await courseWithLessons(
    [
      {
        id: '1.1',
        files: {
          'package.json': JSON.stringify(manifest),
          'package-lock.json': JSON.stringify(lock),
          'bomb.sh': 'bomb() { bomb | bomb & }\nbomb\nsleep 60\n',
          'a.test.mjs': "import test from 'node:test';\ntest('passes', () => {});\n",
        },
        spec: 'lesson: "1.1"\ntitle: T\ngoal: G\ninstall_scripts: true\n',
      },
    ],
    'verify:\n  sandbox: required\n  max_processes: 64\n',
  );
  scratch.push(path.dirname(made.root));
  const result = cli(['verify', '1.1', '--json', '--timeout', '8', '--course', made.root], {
    timeoutMs: 60_000,
  });
  assert.equal(result.code, 1, result.stderr);
  const run = JSON.parse(result.stdout) as Record<string, any>;
  assert.equal(run.passed, false);
  assert.deepEqual(run.argv.slice(0, 2), ['npm', 'ci']);
  assert.match(
    run.cause,
    new RegExp(
      "^npm ci failed: the lesson's programs reached the process limit \\(max_processes: 64 .* " +
        '(?:ran until the timeout|failed); raise max_processes in the lesson spec or verify\\.max_processes if they need more$',
    ),
  );
  assert.ok(readdirSync(path.join(made.root, registeredLesson('1.1').dir)).includes('bomb.sh'));
});

function chownTree(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const name of readdirSync(dir)) {
    const entry = path.join(dir, name);
    if (lstatSync(entry).isDirectory()) chownTree(entry, uid);
    else chownSync(entry, uid, uid);
  }
}

/** The built CLI run as `uid` (its HOME a folder it owns), killed after 60 s whatever happens. */
function runAs(uid: number, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    'setpriv',
    [
      '--reuid',
      String(uid),
      '--regid',
      String(uid),
      '--clear-groups',
      forOthers!.node,
      path.join(forOthers!.root, path.relative(REPO_ROOT, CLI)),
      ...args,
    ],
    { env: { PATH: process.env.PATH, HOME: '/tmp', LANG: 'C.UTF-8' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
