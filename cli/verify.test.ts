// codelabgen verify end to end: real lessons in temp courses, run through the built CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'node:test';
import { hashLessonCode } from '../pipeline/artifacts/code-hash.ts';
import type { Course } from '../pipeline/course/course.ts';
import { courseWithLessons, registeredLesson, survivorsOf, type LessonFixture } from '../pipeline/verify/fixtures.ts';
import { cli, exists, readEvents, readState, snapshot, tempDir, type CliResult } from './testing.ts';

const nodeTest = (body: string, imports = '') =>
  `import test from 'node:test';\nimport assert from 'node:assert/strict';\n${imports}\n${body}\n`;
const PASSING = {
  'test/math.test.mjs': nodeTest("test('adds', () => assert.equal(1 + 1, 2));"),
  'src/math.mjs': 'export const add = (a, b) => a + b;\n',
};
const FAILING = { 'test/math.test.mjs': nodeTest("test('adds', () => assert.equal(1 + 1, 3));") };
const SLOW_PASSING = {
  'slow.test.mjs': nodeTest(
    "test('waits', async () => { await new Promise((resolve) => setTimeout(resolve, 400)); assert.ok(true); });",
  ),
};
const spec = (id: string, extra: string) => `lesson: "${id}"\ntitle: T\ngoal: G\n${extra}`;

const dirOf = (course: Course, id: string) => path.join(course.root, registeredLesson(id).dir);
const verify = (course: Course, args: string[], env: NodeJS.ProcessEnv = {}): CliResult =>
  cli(['verify', ...args, '--course', course.root], { env });
const json = (result: CliResult) => JSON.parse(result.stdout) as Record<string, any>;
const stateFiles = (course: Course) => [
  readFileSync(path.join(course.dir, 'state.json'), 'utf8'),
  readFileSync(path.join(course.dir, 'events.jsonl'), 'utf8'),
];

test('a passing node lesson: exit 0, a run-result with every field, state untouched', async () => {
  const course = await courseWithLessons([{ id: '1.1', files: PASSING }]);
  const before = stateFiles(course);
  const result = verify(course, ['1.1', '--json']);
  assert.equal(result.code, 0, result.stderr);
  const run = json(result);
  assert.equal(run.passed, true);
  assert.equal(run.run, 1);
  assert.equal(run.runtime, 'node');
  assert.deepEqual(run.argv, [process.execPath, '--test']);
  assert.equal(run.cwd, registeredLesson('1.1').dir);
  assert.deepEqual(run.tests, { passed: 1, failed: 0, skipped: 0, total: 1 });
  assert.equal(run.exit_code, 0);
  assert.equal(run.signal, null);
  assert.equal(run.timed_out, false);
  assert.equal(run.cause, null);
  assert.equal(run.code_hash, hashLessonCode(dirOf(course, '1.1')));
  assert.equal(run.file, '.codelabgen/runs/1.1/1.json');
  assert.equal(run.state, null);
  const stored = JSON.parse(readFileSync(path.join(course.root, run.file), 'utf8'));
  assert.deepEqual(Object.keys(stored).sort(), [
    'argv',
    'cause',
    'code_hash',
    'cwd',
    'duration_ms',
    'exit_code',
    'lesson',
    'output_bytes',
    'output_tail',
    'output_truncated',
    'passed',
    'run',
    'runtime',
    'sandbox',
    'schema_version',
    'signal',
    'started_at',
    'tests',
    'timed_out',
  ]);
  assert.deepEqual(stateFiles(course), before, 'verify without --update-state changes no state');
  const human = verify(course, ['1.1']);
  assert.equal(human.code, 0);
  assert.match(human.stdout, /^lesson 1\.1 passed: 1 tests \(1 passed, 0 failed, 0 skipped\) in \d+\.\ds \(/m);
  assert.match(human.stdout, /^run 2: \.codelabgen\/runs\/1\.1\/2\.json$/m);
});

test('a node lesson with a package.json test script runs npm test (after npm ci when locked)', async () => {
  const manifest = JSON.stringify({
    name: 'lesson',
    version: '1.0.0',
    private: true,
    scripts: { test: 'node --test' },
  });
  const lock = JSON.stringify({
    name: 'lesson',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { name: 'lesson', version: '1.0.0' } },
  });
  const course = await courseWithLessons([
    { id: '1.6', files: { ...PASSING, 'package.json': manifest, 'package-lock.json': lock } },
  ]);
  const result = verify(course, ['1.6', '--json']);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.deepEqual(json(result).argv, ['npm', 'test']);
  assert.deepEqual(json(result).tests, { passed: 1, failed: 0, skipped: 0, total: 1 });
});

test('a failing node lesson: exit 1, the cause from the output, the output tail printed', async () => {
  const course = await courseWithLessons([{ id: '1.2', files: FAILING }]);
  const result = verify(course, ['1.2']);
  assert.equal(result.code, 1);
  assert.equal(result.stderr, 'error: lesson 1.2 failed: adds: Expected values to be strictly equal: 2 !== 3\n');
  assert.match(result.stdout, /^    Expected values to be strictly equal:$/m);
  assert.match(result.stdout, /^lesson 1\.2 FAILED: 1 tests \(0 passed, 1 failed, 0 skipped\)/m);
  const run = JSON.parse(readFileSync(path.join(course.dir, 'runs/1.2/1.json'), 'utf8'));
  assert.equal(run.passed, false);
  assert.equal(run.exit_code, 1);
  assert.deepEqual(run.tests, { passed: 0, failed: 1, skipped: 0, total: 1 });
});

test('a hanging lesson: the timeout kills the whole group, grandchild included', async () => {
  const token = `codelabgen-hang-${process.pid}`; // found in /proc from here, also inside a sandbox's PID namespace
  const body = `test('hangs', async () => {
  spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${token}'], { stdio: 'ignore' });
  writeFileSync('spawned', '');
  setInterval(() => {}, 1000);
  await new Promise(() => {});
});`;
  const course = await courseWithLessons([
    {
      id: '1.3',
      files: {
        'hang.test.mjs': nodeTest(
          body,
          "import { spawn } from 'node:child_process';\nimport { writeFileSync } from 'node:fs';",
        ),
      },
    },
  ]);
  // 30 s: the sandbox, node --test and the test file's process must have started the grandchild
  // before the timeout; at nice 10 beside busy cores one node process took close to 4 s to start one.
  const result = verify(course, ['1.3', '--timeout', '30', '--json']);
  assert.equal(result.code, 1, result.stderr);
  const run = json(result);
  assert.equal(run.timed_out, true);
  assert.equal(run.signal, 'SIGKILL');
  assert.equal(run.exit_code, null);
  assert.match(run.cause, /^timed out after 30s/);
  assert.ok(exists(path.join(dirOf(course, '1.3'), 'spawned')), 'the grandchild was started');
  assert.deepEqual(await survivorsOf(token), [], 'the grandchild did not survive the timeout');
});

test('10 MB of output: the tail is kept and output_bytes counts it all', async () => {
  const print =
    'for (let i = 0; i < 160; i++) process.stdout.write("y".repeat(65536));\nprocess.stdout.write("\\nLAST LINE\\n");\n';
  const course = await courseWithLessons([
    {
      id: '1.4',
      files: { 'print.mjs': print },
      spec: spec('1.4', 'runtime: custom\ntest_command: [node, print.mjs]\n'),
    },
  ]);
  const result = verify(course, ['1.4', '--json']);
  assert.equal(result.code, 0, result.stderr);
  const run = json(result);
  assert.equal(run.output_bytes, 10 * 1024 * 1024 + 11);
  assert.equal(run.output_truncated, true);
  assert.equal(Buffer.byteLength(run.output_tail), 64 * 1024);
  assert.ok(run.output_tail.endsWith('y\nLAST LINE\n'));
  assert.equal(run.tests, null, 'no summary in the output: counts are null, never guessed');
});

test('a lesson whose process dies by a signal', async () => {
  const course = await courseWithLessons([
    {
      id: '1.5',
      files: { 'crash.mjs': 'process.kill(process.pid, "SIGSEGV");\n' },
      spec: spec('1.5', 'runtime: custom\ntest_command: [node, crash.mjs]\n'),
    },
  ]);
  const result = verify(course, ['1.5', '--json']);
  assert.equal(result.code, 1);
  const run = json(result);
  assert.equal(run.exit_code, null);
  assert.equal(run.signal, 'SIGSEGV');
  assert.equal(run.cause, 'killed by SIGSEGV');
});

test('python lessons with unittest (pytest hidden): a pass and a failure', async () => {
  // Outside /tmp: the sandbox has a private /tmp, and the pytest probe runs in the sandbox like the tests.
  const hide = mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'codelabgen-nopytest-'));
  writeFileSync(path.join(hide, 'pytest.py'), 'raise ImportError("pytest hidden for this test")\n');
  const env = { CODELABGEN_VERIFY_ENV: 'PYTHONPATH', PYTHONPATH: hide };
  const passing =
    'import unittest\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, ' +
    '2)\n\n    @unittest.skip("later")\n    def test_later(self):\n        pass\n';
  const failing =
    'import unittest\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 3)\n';
  const course = await courseWithLessons(
    [
      { id: '2.1', files: { 'test_add.py': passing } },
      { id: '2.2', files: { 'test_add.py': failing } },
    ],
    'runtime: python\n',
  );
  const pass = verify(course, ['2.1', '--json'], env);
  assert.equal(pass.code, 0, pass.stdout + pass.stderr);
  assert.deepEqual(json(pass).argv, ['python3', '-m', 'unittest', 'discover']);
  assert.deepEqual(json(pass).tests, { passed: 1, failed: 0, skipped: 1, total: 2 });
  const fail = verify(course, ['2.2', '--json'], env);
  assert.equal(fail.code, 1);
  assert.deepEqual(json(fail).tests, { passed: 0, failed: 1, skipped: 0, total: 1 });
  assert.equal(json(fail).cause, 'FAIL: test_add (test_add.T.test_add): AssertionError: 2 != 3');
  assert.ok(
    !exists(path.join(dirOf(course, '2.1'), '__pycache__')),
    'PYTHONDONTWRITEBYTECODE keeps the lesson folder clean',
  );
  rmSync(hide, { recursive: true, force: true });
});

const hasPytest = spawnSync('python3', ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0;
test('a python lesson with pytest', {
  skip: hasPytest ? false : 'pytest is not installed for python3 here',
}, async () => {
  const tests =
    'import pytest\n\ndef test_add():\n    assert 1 + 1 == 2\n\ndef test_sub():\n    assert 2 - 1 == ' +
    '0\n\n@pytest.mark.skip(reason="later")\ndef test_later():\n    pass\n';
  const course = await courseWithLessons([{ id: '2.3', files: { 'test_math.py': tests } }], 'runtime: python\n');
  const result = verify(course, ['2.3', '--json']);
  assert.equal(result.code, 1);
  const run = json(result);
  assert.deepEqual(run.argv, ['python3', '-m', 'pytest', '-p', 'no:cacheprovider']);
  assert.deepEqual(run.tests, { passed: 1, failed: 1, skipped: 1, total: 3 });
  assert.match(run.cause, /^FAILED test_math\.py::test_sub - assert /);
  for (const cache of ['.pytest_cache', '.benchmarks', '__pycache__'])
    assert.ok(!exists(path.join(dirOf(course, '2.3'), cache)), `no ${cache} left in the lesson folder`);
});

test('python-uv: uv run pytest in the module folder, VIRTUAL_ENV removed (a fake uv prints its environment)', async () => {
  const bin = tempDir('codelabgen-fakeuv-');
  writeFileSync(path.join(bin, 'uv'), '#!/bin/sh\necho "args: $*"\nenv | sort\necho "1 passed in 0.01s"\n', {
    mode: 0o755,
  });
  const course = await courseWithLessons(
    [{ id: '3.1', files: { 'test_a.py': 'def test_a():\n    pass\n' } }],
    'runtime: python-uv\n',
  );
  const env = {
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    VIRTUAL_ENV: '/somewhere/.venv',
    CODELABGEN_VERIFY_ENV: 'VIRTUAL_ENV,UV_MARKER',
    UV_MARKER: 'passed-through',
  };
  const result = verify(course, ['3.1', '--json'], env);
  assert.equal(result.code, 0, result.stderr);
  const run = json(result);
  assert.deepEqual(run.argv, [
    'uv',
    'run',
    '--no-build',
    'pytest',
    '-p',
    'no:cacheprovider',
    path.basename(registeredLesson('3.1').dir),
  ]);
  assert.equal(run.cwd, '1-basics');
  assert.match(run.output_tail, /^UV_MARKER=passed-through$/m, 'the fake uv printed its environment');
  assert.doesNotMatch(run.output_tail, /VIRTUAL_ENV/);
  assert.deepEqual(run.tests, { passed: 1, failed: 0, skipped: 0, total: 1 });
  const noUv = verify(course, ['3.1'], { PATH: '/nonexistent' });
  assert.equal(noUv.code, 2);
  assert.equal(
    noUv.stderr,
    'error: lesson 3.1: runtime python-uv needs uv, which is not on PATH\nhint: install uv ' +
      '(https://docs.astral.sh/uv/), or set runtime: python in the lesson spec\n',
  );
});

test('refusals exit 2 and change nothing: shell operators, a path escaping the course, usage', async () => {
  const course = await courseWithLessons([
    {
      id: '4.1',
      files: PASSING,
      spec: spec('4.1', 'runtime: custom\ntest_command: [node, --test, "a.test.mjs > log.txt"]\n'),
    },
    { id: '4.2', files: PASSING },
    { id: '4.3', files: PASSING },
  ]);
  // a lesson folder linked inside the course (here: to the course root) would make the sandbox bind .codelabgen/ writable
  rmSync(dirOf(course, '4.3'), { recursive: true });
  symlinkSync(course.root, dirOf(course, '4.3'));
  writeFileSync(
    path.join(course.root, 'evil.test.mjs'),
    nodeTest(
      "test('x', () => writeFileSync('.codelabgen/state.json', '{}'));",
      "import { writeFileSync } from 'node:fs';",
    ),
  );
  const outside = tempDir('codelabgen-outside-');
  writeFileSync(path.join(outside, 'evil.test.mjs'), nodeTest("test('x', () => {});"));
  rmSync(dirOf(course, '4.2'), { recursive: true });
  symlinkSync(outside, dirOf(course, '4.2'));
  const before = snapshot(course.root);
  const cases: Array<[string[], RegExp | string]> = [
    [
      ['4.1'],
      'error: .codelabgen/lessons/4.1/spec.yaml: test_command[2]: "a.test.mjs > log.txt" contains the shell ' +
        'operator ">"; test commands run without a shell, so give one program and its arguments as a list\nhint: ' +
        'to run several steps, put them in a script in the lesson folder and make test_command run it\n',
    ],
    [
      ['4.2'],
      new RegExp(
        `^error: lesson 4\\.2: dir: path "1-basics/4\\.2-lesson-4-2" resolves outside the course \\(${outside.replace(/[.]/g, '\\.')}\\)\n$`,
      ),
    ],
    [['4.2', '--update-state'], /^error: lesson 4\.2: dir: path .* resolves outside the course/],
    [
      ['4.3'],
      new RegExp(
        String.raw`^error: lesson 4\.3: dir: 1-basics\/4\.3-lesson-4-3 goes through a symbolic link \(to .*\); a lesson ` +
          String.raw`folder and its module folder must be real folders\nhint: replace the link with the folder itself\n$`,
      ),
    ],
    [['9.9'], 'error: unknown lesson "9.9"\nhint: list lessons with: codelabgen state show --all\n'],
    [[], 'error: verify: give one lesson id or --all\nhint: codelabgen verify 1.2   or   codelabgen verify --all\n'],
    [['4.1', '--all'], /^error: verify: give one lesson id or --all\n/],
    [['4.1', '--jobs', '2'], 'error: verify: --jobs goes with --all, not with a lesson id\n'],
    [['4.1', '--timeout', '0'], 'error: --timeout "0": expected a whole number from 1 to 86400\n'],
    [['--all', '--shard', '4/3'], 'error: --shard "4/3": expected K/N with 1 <= K <= N, e.g. 2/4\n'],
  ];
  for (const [args, stderr] of cases) {
    const result = verify(course, args);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    if (typeof stderr === 'string') assert.equal(result.stderr, stderr);
    else assert.match(result.stderr, stderr);
  }
  assert.deepEqual(snapshot(course.root), before);
});

test('--update-state: a pass records verified with the code hash; a lesson not at code is refused before running', async () => {
  const course = await courseWithLessons([
    { id: '5.1', files: PASSING },
    { id: '5.2', files: PASSING, stage: 'spec' },
    { id: '5.3', files: PASSING, stage: 'pending' },
  ]);
  const result = verify(course, ['5.1', '--update-state']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^run 1: \.codelabgen\/runs\/5\.1\/1\.json; state: verified$/m);
  const event = readEvents(course.root).at(-1)!;
  assert.equal(event.kind, 'lesson.verified');
  assert.equal(event.code_hash, hashLessonCode(dirOf(course, '5.1')));
  assert.equal(event.run, 1);
  const lesson = (readState(course.root).lessons as Record<string, any>)['5.1'];
  assert.equal(lesson.stage, 'verified');
  assert.deepEqual([lesson.verified.code_hash, lesson.verified.run], [event.code_hash, 1]);
  const before = snapshot(course.root);
  const hints: string[] = [];
  const stages: Record<string, string> = { '5.1': 'verified', '5.2': 'spec', '5.3': 'pending' };
  for (const [id, stage] of Object.entries(stages)) {
    const refused = verify(course, [id, '--update-state']);
    assert.equal(refused.code, 2);
    const [error, ...rest] = refused.stderr.trimEnd().split('\n');
    assert.equal(error, `error: lesson ${id} is at ${stage}; verify --update-state needs it at code`);
    hints.push(...rest);
  }
  assert.deepEqual(snapshot(course.root), before, 'refused before anything ran: no run-result either');
  // Each hint's command is taken (it was `state set ID code` for each: refused at pending, and at verified without a note).
  assert.deepEqual(hints, [
    'hint: to verify it again: codelabgen state set 5.1 code --note "why"',
    'hint: when its code is written: codelabgen state set 5.2 code',
    'hint: to run its tests without recording a verdict: codelabgen verify 5.3',
  ]);
  for (const hint of hints) {
    const words = hint.replace(/^.*: codelabgen /, '').match(/"[^"]*"|\S+/g)!;
    const taken = cli([...words.map((word) => word.replace(/^"(.*)"$/, '$1')), '--course', course.root]);
    assert.equal(taken.code, 0, `${hint}: ${taken.stderr}`);
  }
});

test('budget: failures through verify --update-state use fix attempts up to the automatic block', async () => {
  const course = await courseWithLessons([{ id: '6.1', files: FAILING }], 'budgets:\n  fix_attempts: 2\n');
  const first = verify(course, ['6.1', '--update-state', '--json']);
  assert.equal(first.code, 1);
  assert.equal(json(first).state, 'fix attempt 1 of 2 used');
  const second = verify(course, ['6.1', '--update-state']);
  assert.equal(second.code, 1);
  assert.match(second.stdout, /; state: blocked: fix budget used up \(2 of 2\)$/m);
  const fails = readEvents(course.root).filter((event) => event.kind === 'lesson.fail');
  assert.deepEqual(
    fails.map((event) => [event.via, event.run, event.fix_attempts_used, event.blocked, event.note]),
    [
      ['verify', 1, 1, false, 'adds: Expected values to be strictly equal: 2 !== 3'],
      ['verify', 2, 2, true, 'adds: Expected values to be strictly equal: 2 !== 3'],
    ],
  );
  const lesson = (readState(course.root).lessons as Record<string, any>)['6.1'];
  assert.equal(lesson.blocked.by, 'fix-budget');
  assert.equal(lesson.stage, 'code');
  const before = snapshot(course.root);
  const third = verify(course, ['6.1', '--update-state']);
  assert.equal(third.code, 2);
  assert.match(
    third.stderr,
    /^error: lesson 6\.1 is blocked \(fix budget used up \(2 failed attempts\); last: adds: .*\); unblock it first\nhint: codelabgen state unblock 6\.1\n$/,
  );
  assert.deepEqual(snapshot(course.root), before);
});

test('drift: a code change after verification is reported and done refused; a docs/ change is not drift', async () => {
  const course = await courseWithLessons([
    { id: '7.1', files: { ...PASSING, 'docs/readalong.md': '# Read along\n' }, stage: 'reviewed' },
  ]);
  const code = path.join(dirOf(course, '7.1'), 'src/math.mjs');
  writeFileSync(code, 'export const add = (a, b) => b + a;\n');
  const before = snapshot(course.root);
  const done = cli(['state', 'set', '7.1', 'done', '--course', course.root]);
  assert.equal(done.code, 2);
  assert.match(done.stderr, /^error: .*lesson 7\.1: code changed since it was verified/);
  assert.deepEqual(snapshot(course.root), before);
  const check = cli(['check', '--course', course.root]);
  assert.equal(check.code, 1);
  assert.match(check.stdout, /lesson 7\.1: code changed since it was verified/);
  writeFileSync(code, PASSING['src/math.mjs']);
  writeFileSync(path.join(dirOf(course, '7.1'), 'docs/readalong.md'), '# Read along, rewritten\n');
  const doneNow = cli(['state', 'set', '7.1', 'done', '--course', course.root]);
  assert.equal(doneNow.code, 0, doneNow.stderr);
});

test('--all --update-state verifies the lessons at code and records each verdict', async () => {
  const course = await courseWithLessons([
    { id: '9.1', files: PASSING },
    { id: '9.2', files: FAILING },
    { id: '9.3', files: PASSING, stage: 'verified' },
  ]);
  const result = verify(course, ['--all', '--update-state', '--json']);
  assert.equal(result.code, 1, result.stderr);
  assert.deepEqual(
    json(result).lessons.map((entry: any) => `${entry.lesson}:${entry.status}`),
    ['9.1:passed', '9.2:failed'],
  );
  const lessons = readState(course.root).lessons as Record<string, any>;
  assert.deepEqual(
    [lessons['9.1'].stage, lessons['9.2'].stage, lessons['9.2'].fix_attempts_used, lessons['9.3'].stage],
    ['verified', 'code', 1, 'verified'],
  );
  assert.ok(
    !exists(path.join(course.dir, 'runs/9.3')),
    'a lesson already verified is not selected with --update-state',
  );
});

async function sixLessons(): Promise<Course> {
  const lessons: LessonFixture[] = ['8.1', '8.2', '8.3', '8.4', '8.5', '8.6'].map((id) => ({
    id,
    files: id === '8.4' ? FAILING : SLOW_PASSING,
    stage: 'verified',
  }));
  lessons.push({ id: '8.7', files: PASSING, stage: 'code' }); // below verified: not selected by default
  return courseWithLessons(lessons);
}

test('--all --jobs 2 on six lessons with one failing: exit 1, the summary, both jobs used', async (t) => {
  const course = await sixLessons();
  const before = stateFiles(course);
  const result = verify(course, ['--all', '--jobs', '2', '--json']);
  assert.equal(result.code, 1, result.stderr);
  const summary = json(result);
  assert.deepEqual(
    [summary.ok, summary.total, summary.passed, summary.failed, summary.errors, summary.jobs],
    [false, 6, 5, 1, 0, 2],
  );
  assert.deepEqual(
    summary.lessons.map((entry: any) => `${entry.lesson}:${entry.status}`),
    ['8.1:passed', '8.2:passed', '8.3:passed', '8.4:failed', '8.5:passed', '8.6:passed'],
  );
  assert.equal(summary.peak_parallel, 2, 'two lessons ran at once');
  t.diagnostic(`--jobs 2: wall ${summary.wall_ms} ms vs ${summary.serial_ms} ms of test time run one after another`);
  assert.deepEqual(stateFiles(course), before, 'read-only without --update-state');
  const human = verify(course, ['--all', '--jobs', '2']);
  assert.equal(human.code, 1);
  assert.equal(
    human.stderr.split('\n').filter((line) => /^8\.\d +(passed|FAILED)/.test(line)).length,
    6,
    'a plain log line per lesson off a TTY',
  );
  assert.match(human.stderr, /^error: verify --all: 1 failed, 0 could not run, of 6 lessons$/m);
  assert.match(human.stdout, /^8\.4 +FAILED +0\/1 passed/m);
  assert.match(human.stdout, /^6 lessons: 5 passed, 1 failed, 0 could not run; /m);
});

test('--shard 1/3..3/3 cover every lesson once; verify merge folds the shards into one summary', async () => {
  const course = await sixLessons();
  const artifacts = tempDir('codelabgen-shards-');
  const seen: string[] = [];
  for (let shard = 1; shard <= 3; shard += 1) {
    const result = verify(course, ['--all', '--shard', `${shard}/3`, '--json']);
    const summary = json(result);
    assert.equal(summary.shard, `${shard}/3`);
    seen.push(...summary.lessons.map((entry: any) => entry.lesson));
    cpSync(path.join(course.dir, 'runs'), path.join(artifacts, `runs-${shard}`), { recursive: true });
    rmSync(path.join(course.dir, 'runs'), { recursive: true });
  }
  assert.deepEqual([...seen].sort(), ['8.1', '8.2', '8.3', '8.4', '8.5', '8.6']);
  assert.deepEqual(readdirSync(path.join(artifacts, 'runs-2')).sort(), ['8.2', '8.5']);
  const dirs = [1, 2, 3].map((shard) => path.join(artifacts, `runs-${shard}`));
  const merged = cli(['verify', 'merge', ...dirs, '--json']);
  assert.equal(merged.code, 1);
  const summary = json(merged);
  assert.deepEqual([summary.total, summary.passed, summary.failed], [6, 5, 1]);
  assert.deepEqual(
    summary.lessons.map((entry: any) => entry.lesson),
    ['8.1', '8.2', '8.3', '8.4', '8.5', '8.6'],
  );
  const human = cli(['verify', 'merge', ...dirs]);
  assert.equal(human.code, 1);
  assert.match(human.stdout, /^6 lessons: 5 passed, 1 failed, 0 could not run$/m);
  assert.equal(human.stderr, 'error: verify merge: 1 failed, 0 could not run, of 6 lessons\n');
  mkdirSync(path.join(artifacts, 'empty'));
  const missing = cli(['verify', 'merge', path.join(artifacts, 'nope')]);
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /^error: verify merge: ".*nope" is not a folder; give folders that are copies of \.codelabgen\/runs\/\n$/,
  );
});
