// What a lesson test may write, end to end through the built CLI: only its own lesson folder
// (python-uv included), never its docs/ (sandboxed or not), at most verify.max_write_mb; and no
// program from the lesson folder runs outside the sandbox (the pytest probe).
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { cli, type CliResult } from '../../cli/testing.ts';
import type { Course } from '../course/course.ts';
import { courseWithLessons, registeredLesson, type LessonFixture } from './fixtures.ts';
import { MACHINE_PROBES } from './runtime.ts';
import { findBwrap, probeBwrap } from './sandbox.ts';

const bwrap = findBwrap(process.env, MACHINE_PROBES.isExecutable);
const usable = bwrap !== null && probeBwrap(bwrap).usable;
const needsBwrap = {
  skip: usable ? false : 'bubblewrap is not usable here; install it (apt-get install bubblewrap) to run this test',
};
const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const dirOf = (course: Course, id: string) => path.join(course.root, registeredLesson(id).dir);
const json = (result: CliResult) => JSON.parse(result.stdout) as Record<string, any>;
const probeReport = (result: CliResult) =>
  JSON.parse(json(result).output_tail.trim().split('\n').at(-1)) as Record<string, any>;
const verify = (course: Course, args: string[], env: NodeJS.ProcessEnv = {}) =>
  cli(['verify', ...args, '--course', course.root], { env });
/** The machine's word on the sandbox (a course's verify.sandbox: off is not honoured): in it, or without it. */
const SANDBOXED = { CODELABGEN_SANDBOX: 'required' };
const UNSANDBOXED = { CODELABGEN_SANDBOX: 'off' };
const custom = (id: string, args: string[] = []) =>
  `lesson: "${id}"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [node, probe.cjs${args.map((arg) => `, "${arg}"`).join('')}]\n`;

async function course(lessons: LessonFixture[], verifySettings: string): Promise<Course> {
  const made = await courseWithLessons(lessons, `verify:\n${verifySettings}`);
  scratch.push(path.dirname(made.root));
  return made;
}

/** A probe script: runs each named attempt (a function body) and prints `{name: 'ok' | error code}` as JSON. */
const attempts = (tries: Record<string, string>) => `const fs = require('node:fs');
const attempt = (action) => { try { action(); return 'ok'; } catch (error) { return error.code; } };
console.log(JSON.stringify({ ${Object.entries(tries)
  .map(([name, body]) => `${JSON.stringify(name)}: attempt(() => { ${body} })`)
  .join(', ')} }));
`;

test(
  'a python-uv test whose workspace is the course root writes its lesson folder only; .codelabgen and .git stay hidden, ' +
    'credential files beside pyproject.toml cannot be read',
  needsBwrap,
  async () => {
    const made = await course(
      [
        { id: '1.1', files: { 'test_a.py': '' } },
        { id: '1.2', files: { 'code.py': 'x = 1\n' } },
      ],
      '  sandbox: required\n',
    );
    const other = path.join(dirOf(made, '1.2'), 'code.py');
    const courseFiles = {
      'pyproject.toml': '[tool.uv.workspace]\nmembers = ["1-basics/*"]\n',
      'uv.lock': 'version = 1\n',
      '.mcp.json': '{}\n',
      '.env': 'API_KEY=secret\n',
      '.env.local': 'API_KEY=secret\n',
      '.git/hooks/pre-commit': '#!/bin/sh\n',
      'node_modules/codelabgen/dist/main.mjs': 'export {};\n',
    };
    for (const [file, content] of Object.entries(courseFiles)) {
      mkdirSync(path.dirname(path.join(made.root, file)), { recursive: true });
      writeFileSync(path.join(made.root, file), content);
    }
    mkdirSync(path.join(made.dir, 'lessons/1.1'), { recursive: true });
    writeFileSync(
      path.join(made.dir, 'lessons/1.1/spec.yaml'),
      'lesson: "1.1"\ntitle: T\ngoal: G\nruntime: python-uv\n',
    );
    // A stand-in for uv: it runs in the workspace (the course root) and tries to write around it.
    const bin = mkdtempSync(path.join(tmpdir(), 'codelabgen-fake-uv-'));
    scratch.push(bin);
    writeFileSync(
      path.join(bin, 'uv'),
      `#!${process.execPath}\n${attempts({
        hook: `fs.writeFileSync('.git/hooks/pre-commit', 'pwned')`,
        cli: `fs.writeFileSync('node_modules/codelabgen/dist/main.mjs', 'pwned')`,
        otherLesson: `fs.writeFileSync(${JSON.stringify(other)}, 'pwned')`,
        mcp: `fs.writeFileSync('.mcp.json', 'pwned')`,
        workspace: `fs.writeFileSync('pyproject.toml', 'pwned')`,
        state: `fs.readFileSync('.codelabgen/state.json')`,
        dotenv: `if (fs.readFileSync('.env', 'utf8').includes('secret')) throw { code: 'read the secret' }`,
        dotenvLocal: `if (fs.readFileSync('.env.local', 'utf8').includes('secret')) throw { code: 'read the secret' }`,
        lesson: `fs.writeFileSync(process.argv.at(-1) + '/written.txt', 'x')`,
      }).replace(
        'console.log(JSON.stringify({',
        'console.log(JSON.stringify({ venv: process.env.UV_PROJECT_ENVIRONMENT, ',
      )}`,
      { mode: 0o755 },
    );
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH}` };
    const result = verify(made, ['1.1', '--json'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(probeReport(result), {
      venv: path.join(dirOf(made, '1.1'), '.venv'),
      hook: 'ENOENT',
      cli: 'EROFS',
      otherLesson: 'EROFS',
      mcp: 'EROFS',
      workspace: 'EROFS',
      state: 'ENOENT',
      dotenv: 'EACCES',
      dotenvLocal: 'EACCES',
      lesson: 'ok',
    });
    for (const [file, content] of Object.entries(courseFiles))
      assert.equal(readFileSync(path.join(made.root, file), 'utf8'), content, file);
    assert.equal(readFileSync(other, 'utf8'), 'x = 1\n');
    assert.equal(readFileSync(path.join(dirOf(made, '1.1'), 'written.txt'), 'utf8'), 'x');
    rmSync(path.join(made.root, 'uv.lock'));
    const refused = verify(made, ['1.1'], env);
    assert.equal(refused.code, 2);
    assert.deepEqual(refused.stderr.split('\n').slice(0, 2), [
      `error: lesson 1.1: the uv workspace ${made.root} has no uv.lock, and the sandbox lets tests write only their lesson folder`,
      'hint: run `uv lock` in that folder (and review the lock file), or give the lesson a pyproject.toml of its own, ' +
        'or set CODELABGEN_SANDBOX=off to run the tests without the sandbox',
    ]);
  },
);

const DOCS_PROBE = attempts({
  edit: `fs.writeFileSync('docs/readalong.md', 'changed')`,
  mdx: `fs.writeFileSync('docs/readalong.mdx', 'export const x = 1')`,
  remove: `fs.rmSync('docs/readalong.md')`,
  rename: `fs.renameSync('docs', 'docs-old')`,
});

test(
  'a sandboxed test cannot change its lesson docs, nor create them where there is no docs/ yet',
  needsBwrap,
  async () => {
    const made = await course(
      [
        { id: '1.1', files: { 'probe.cjs': DOCS_PROBE, 'docs/readalong.md': '# Read\n' }, spec: custom('1.1') },
        {
          id: '1.2',
          files: {
            'probe.cjs': attempts({
              plant: `fs.mkdirSync('docs', { recursive: true }); fs.writeFileSync('docs/readalong.mdx', 'export const x = 1')`,
            }),
          },
          spec: custom('1.2'),
        },
      ],
      '  sandbox: required\n',
    );
    const guarded = verify(made, ['1.1', '--json']);
    assert.equal(guarded.code, 0, guarded.stderr);
    assert.deepEqual(probeReport(guarded), { edit: 'EROFS', mdx: 'EROFS', remove: 'EROFS', rename: 'EBUSY' });
    assert.equal(readFileSync(path.join(dirOf(made, '1.1'), 'docs/readalong.md'), 'utf8'), '# Read\n');
    // A lesson at `code` has no docs/ yet: a planted docs/readalong.mdx failed the run but stayed,
    // and with site.mdx: true the next build would have run it outside the sandbox.
    const planted = verify(made, ['1.2', '--json']);
    assert.equal(planted.code, 0, planted.stderr);
    assert.deepEqual(probeReport(planted), { plant: 'EROFS' });
    assert.deepEqual(readdirSync(path.join(dirOf(made, '1.2'), 'docs')), []);
  },
);

test('unsandboxed, a test that replaces its readalong.md with an .mdx fails naming the file', async () => {
  const swap = attempts({
    swap: `fs.rmSync('docs/readalong.md'); fs.writeFileSync('docs/readalong.mdx', 'export const x = 1')`,
  });
  const made = await course(
    [{ id: '1.1', files: { 'probe.cjs': swap, 'docs/readalong.md': '# Read\n' }, spec: custom('1.1') }],
    '  sandbox: auto\n',
  );
  const result = verify(made, ['1.1', '--json'], UNSANDBOXED);
  assert.equal(result.code, 1);
  assert.equal(json(result).passed, false);
  assert.equal(
    json(result).cause,
    "the tests changed the lesson's docs: docs/readalong.mdx (added); tests may write their lesson folder but never its docs/ (docs/verify.md)",
  );
});

test(
  'a git or hg repository a test makes in its lesson folder (its config would run core.fsmonitor or a hook outside ' +
    'the sandbox) fails the run and is removed; one that was there is named',
  needsBwrap,
  async () => {
    // A repository whose config runs a command on `git status`, and a gitfile naming another; data/.git was there before the run.
    const plant = attempts({
      repository: `fs.mkdirSync('src/.git/objects', { recursive: true }); fs.mkdirSync('src/.git/refs/heads', { recursive: true });
        fs.writeFileSync('src/.git/HEAD', 'ref: refs/heads/main\\n');
        fs.writeFileSync('src/.git/config', '[core]\\n\\tfsmonitor = "touch planted-hook-ran; false"\\n')`,
      gitfile: `fs.mkdirSync('lib'); fs.writeFileSync('lib/.git', 'gitdir: ../src/.git\\n')`,
      kept: `fs.writeFileSync('data/.git/note', 'x')`,
      mercurial: `fs.mkdirSync('tools/.hg', { recursive: true });
        fs.writeFileSync('tools/.hg/hgrc', '[hooks]\\npre-status = touch planted-hook-ran\\n')`,
    });
    for (const [sandbox, env] of [
      ['required', SANDBOXED],
      ['off', UNSANDBOXED],
    ] as const) {
      const made = await course(
        [{ id: '1.1', files: { 'probe.cjs': plant, 'src/a.txt': '', 'data/.git/old': '' }, spec: custom('1.1') }],
        '  sandbox: auto\n',
      );
      const result = verify(made, ['1.1', '--json'], env);
      assert.equal(json(result).sandbox, sandbox === 'off' ? 'none' : 'bwrap');
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual(probeReport(result), { repository: 'ok', gitfile: 'ok', kept: 'ok', mercurial: 'ok' });
      assert.equal(
        json(result).cause,
        'the tests made or changed a version-control repository in the lesson folder: data/.git (changed), lib/.git ' +
          '(removed), src/.git (removed), tools/.hg (removed); git or hg run in that folder, as by a shell prompt ' +
          "showing the branch, would obey its config (git's core.fsmonitor, hg's hooks run a command) outside the " +
          "sandbox: a test's repository belongs in a temporary folder",
      );
      const lesson = dirOf(made, '1.1');
      assert.deepEqual(readdirSync(path.join(lesson, 'src')), ['a.txt'], sandbox);
      assert.deepEqual(readdirSync(path.join(lesson, 'lib')), [], sandbox);
      assert.deepEqual(readdirSync(path.join(lesson, 'tools')), [], sandbox);
      assert.deepEqual(
        readdirSync(path.join(lesson, 'data/.git')).sort(),
        ['note', 'old'],
        'a repository that was there before is named, not removed',
      );
    }
  },
);

test('verify.max_write_mb: a run that adds more fails naming the largest file; a larger single file (even sparse) is stopped by RLIMIT_FSIZE', async () => {
  const many = attempts({
    write: `for (const name of ['a', 'b', 'c']) fs.writeFileSync(name + '.bin', Buffer.alloc(600 * 1024))`,
  });
  const sparse = attempts({
    sparse: `fs.writeFileSync('sparse.bin', ''); fs.truncateSync('sparse.bin', 3 * 1024 ** 3)`,
  });
  const dd =
    'lesson: "1.3"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [dd, if=/dev/zero, of=big.bin, bs=1048576, count=2]\n';
  const lessons: LessonFixture[] = [
    { id: '1.1', files: { 'probe.cjs': many }, spec: custom('1.1') },
    { id: '1.2', files: { 'probe.cjs': sparse }, spec: custom('1.2') },
    { id: '1.3', files: { 'a.txt': '' }, spec: dd },
  ];
  const made = await course(lessons, '  sandbox: auto\n  max_write_mb: 1\n');
  const tooMuch = verify(made, ['1.1', '--json'], UNSANDBOXED);
  assert.equal(json(tooMuch).sandbox, 'none');
  assert.equal(tooMuch.code, 1, tooMuch.stderr);
  assert.equal(
    json(tooMuch).cause,
    `the tests wrote 1.8 MiB into ${registeredLesson('1.1').dir}, over verify.max_write_mb (1); largest: a.bin (0.6 MiB)`,
  );
  const refused = verify(made, ['1.2', '--json'], UNSANDBOXED);
  assert.deepEqual(probeReport(refused), { sparse: 'EFBIG' }, 'node ignores SIGXFSZ and gets EFBIG');
  assert.equal(statSync(path.join(dirOf(made, '1.2'), 'sparse.bin')).size, 0, 'the sparse file was not extended');
  // The same limit inside the sandbox (prlimit runs there), on a program that SIGXFSZ stops.
  const sandboxed = usable ? [made, await course(lessons, '  sandbox: required\n  max_write_mb: 1\n')] : [made];
  for (const where of sandboxed) {
    const stopped = verify(where, ['1.3', '--json'], where === made ? UNSANDBOXED : SANDBOXED);
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.equal(json(stopped).cause, 'a test wrote a file over verify.max_write_mb (1 MiB) and was stopped (SIGXFSZ)');
    assert.equal(statSync(path.join(dirOf(where, '1.3'), 'big.bin')).size, 1024 * 1024, 'dd stopped at the limit');
  }
});

test('a 3 GiB sparse file left in a lesson folder is a refusal naming it (exit 2), not an internal error', async () => {
  const made = await course(
    [{ id: '1.1', files: { 'probe.cjs': attempts({}), 'data/keep.txt': 'k' }, spec: custom('1.1') }],
    '  sandbox: auto\n',
  );
  writeFileSync(path.join(dirOf(made, '1.1'), 'data/sparse.bin'), '');
  truncateSync(path.join(dirOf(made, '1.1'), 'data/sparse.bin'), 3 * 1024 ** 3);
  const result = verify(made, ['1.1'], UNSANDBOXED);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(
    result.stderr,
    [
      `error: ${registeredLesson('1.1').dir}/data/sparse.bin is 3.0 GiB, over the 100 MiB limit for one lesson file`,
      'hint: delete it (a lesson test may have left it), or move it out of the lesson folder',
      '',
    ].join('\n'),
  );
});

test('the pytest probe never runs a python3 from the lesson folder, even with "." first on PATH (sandboxed and not)', async () => {
  for (const sandbox of usable ? ['required', 'off'] : ['off']) {
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'codelabgen-marker-')), 'ran');
    scratch.push(path.dirname(marker));
    const fake = `#!/bin/sh\necho ran > ${marker}\nexit 0\n`;
    const made = await course(
      [
        {
          id: '1.1',
          files: { python3: fake, 'test_ok.py': 'def test_ok():\n    assert True\n' },
          spec: 'lesson: "1.1"\ntitle: T\ngoal: G\nruntime: python\n',
        },
      ],
      '  sandbox: auto\n',
    );
    const env = sandbox === 'off' ? UNSANDBOXED : SANDBOXED;
    const result = verify(made, ['1.1', '--json'], { PATH: `.${path.delimiter}${process.env.PATH}`, ...env });
    assert.ok(!existsSync(marker), `${sandbox}: the lesson's own python3 ran on the host`);
    assert.equal(result.code, 0, `${sandbox}: ${result.stderr}${result.stdout}`);
    assert.deepEqual(
      json(result).argv.slice(0, 3),
      ['python3', '-m', 'pytest'],
      `${sandbox}: the probe found pytest with the real python3`,
    );
  }
});
