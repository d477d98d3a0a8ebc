// The bubblewrap sandbox: its argv and layout (pure), the verify.sandbox modes, and end to end
// through the built CLI what a sandboxed lesson test cannot see, reach, write or outlive.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { CLI, cli, cliAsync, snapshot, type CliResult } from '../../cli/testing.ts';
import type { Course } from '../course/course.ts';
import { RefusalError } from '../course/errors.ts';
import { courseWithLessons, processesWith, registeredLesson, survivorsOf, type LessonFixture } from './fixtures.ts';
import { MACHINE_PROBES } from './runtime.ts';
import {
  chooseSandbox,
  findBwrap,
  sandboxChoice,
  hiddenInSandbox,
  probeBwrap,
  SANDBOX_MOUNTS,
  sandboxArgv,
  sandboxLayout,
  type FileProbes,
  type SandboxLayout,
} from './sandbox.ts';
import { presentCaches, removeNewCaches } from './test-caches.ts';

/** sandboxLayout()'s input for lesson 1.1 of the course /c, with no workspace and no prerequisite. */
const LESSON_1_1 = {
  writable: '/c/1-m/1.1-a',
  cwd: '/c/1-m/1.1-a',
  workspace: null,
  courseRoot: '/c',
  courseDotDir: '/c/.codelabgen',
  nodePath: '/opt/node/bin/node',
  prerequisiteDirs: [],
};

const bwrap = findBwrap(process.env, MACHINE_PROBES.isExecutable);
const availability = bwrap === null ? { usable: false as const, reason: 'bwrap is not on PATH' } : probeBwrap(bwrap);
const needsBwrap = {
  skip: availability.usable
    ? false
    : `bubblewrap is not usable here (${'reason' in availability ? availability.reason : ''}); install it (apt-get install bubblewrap) to run this test`,
};
const TOKEN = `codelabgen-sandbox-test-${process.pid}`;
const leftovers: number[] = [];
const scratch: string[] = [];
after(() => {
  for (const pid of leftovers)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const custom = (id: string, extra = '') =>
  `lesson: "${id}"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [node, probe.mjs]\n${extra}`;
const dirOf = (course: Course, id: string) => path.join(course.root, registeredLesson(id).dir);
const json = (result: CliResult) => JSON.parse(result.stdout) as Record<string, any>;
/** The last line the lesson's probe printed, as JSON. */
const probeReport = (result: CliResult) =>
  JSON.parse(json(result).output_tail.trim().split('\n').at(-1)) as Record<string, any>;
const verify = (course: Course, args: string[], env: NodeJS.ProcessEnv = {}) =>
  cli(['verify', ...args, '--course', course.root], { env });
/** The machine's setting that runs lesson tests without the sandbox (a course's verify.sandbox: off cannot). */
const UNSANDBOXED = { CODELABGEN_SANDBOX: 'off' };

async function course(lessons: LessonFixture[], sandbox: string, base = tmpdir()): Promise<Course> {
  const made = await courseWithLessons(lessons, `verify:\n  sandbox: ${sandbox}\n`, base);
  scratch.push(path.dirname(made.root));
  return made;
}

// --- pure parts ---

const LAYOUT: SandboxLayout = {
  writable: '/c/1-m/1.1-a',
  cwd: '/c/1-m/1.1-a',
  hidden: ['/home', '/root', '/run', '/home/me', '/c'],
  readOnly: ['/home/me/.nvm/versions/node/v22', '/c/node_modules'],
  rehidden: ['/c/.codelabgen', '/c/.git'],
  protectedInWritable: ['/c/1-m/1.1-a/docs'],
  network: false,
};
const MIB16 = String(16 * 1024 * 1024);

test(
  'sandboxArgv: everything read-only, secrets hidden (size-capped), then the toolchain and the lesson bound ' +
    'back with its docs read-only, no network',
  () => {
    assert.deepEqual(sandboxArgv(LAYOUT), [
      '--unshare-all',
      '--unshare-user',
      '--disable-userns',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--size',
      MIB16,
      '--tmpfs',
      '/home',
      '--size',
      MIB16,
      '--tmpfs',
      '/root',
      '--size',
      MIB16,
      '--tmpfs',
      '/run',
      '--size',
      MIB16,
      '--tmpfs',
      '/c',
      '--dev',
      '/dev',
      '--remount-ro',
      '/dev',
      '--size',
      String(512 * 1024 * 1024),
      '--tmpfs',
      '/dev/shm',
      '--proc',
      '/proc',
      '--size',
      String(512 * 1024 * 1024),
      '--tmpfs',
      '/tmp',
      '--ro-bind',
      '/home/me/.nvm/versions/node/v22',
      '/home/me/.nvm/versions/node/v22',
      '--ro-bind',
      '/c/node_modules',
      '/c/node_modules',
      '--bind',
      '/c/1-m/1.1-a',
      '/c/1-m/1.1-a',
      '--ro-bind',
      '/c/1-m/1.1-a/docs',
      '/c/1-m/1.1-a/docs',
      '--dir',
      '/tmp/home',
      '--chdir',
      '/c/1-m/1.1-a',
      '--json-status-fd',
      '3',
      '--',
    ]);
  },
);

test(
  'sandboxArgv: no network unless the spec asks; with it, its own DNS and a wait for slirp4netns; a uv ' +
    'workspace at the course root is read-only with .codelabgen and .git hidden again',
  () => {
    const networked = sandboxArgv({ ...LAYOUT, network: true, resolvConf: '/run/systemd/resolve/stub-resolv.conf' });
    // --share-net shares the namespace `unshare --net` made (sandbox-network.ts), never the host's.
    assert.ok(networked.includes('--share-net') && !sandboxArgv(LAYOUT).includes('--share-net'));
    assert.deepEqual(networked.slice(-12, -7), [
      '--ro-bind-data',
      '5',
      '/run/systemd/resolve/stub-resolv.conf',
      '--block-fd',
      '4',
    ]);
    assert.ok(!sandboxArgv(LAYOUT).includes('--block-fd'));
    const workspace = sandboxArgv({ ...LAYOUT, cwd: '/c', readOnly: [...LAYOUT.readOnly, '/c'] });
    const from = workspace.indexOf('--ro-bind', workspace.indexOf('/tmp'));
    assert.deepEqual(
      workspace.slice(from, workspace.indexOf('--dir')),
      [
        '--ro-bind',
        '/home/me/.nvm/versions/node/v22',
        '/home/me/.nvm/versions/node/v22',
        '--ro-bind',
        '/c',
        '/c',
        '--size',
        MIB16,
        '--tmpfs',
        '/c/.codelabgen',
        '--size',
        MIB16,
        '--tmpfs',
        '/c/.git',
        '--bind',
        '/c/1-m/1.1-a',
        '/c/1-m/1.1-a',
        '--ro-bind',
        '/c/1-m/1.1-a/docs',
        '/c/1-m/1.1-a/docs',
      ],
      'node_modules is covered by the read-only workspace; the lesson folder is the only writable bind',
    );
    assert.equal(workspace.filter((arg) => arg === '--bind').length, 1);
    assert.ok(!sandboxArgv(LAYOUT).includes('/c/.git'), '.git is hidden with the course when nothing shows it');
  },
);

test('sandboxLayout: binds back the toolchain prefixes under hidden folders, never a hidden folder itself or .codelabgen', () => {
  const dirs = new Set([
    '/home',
    '/root',
    '/run',
    '/root/.pyenv',
    '/root/.pyenv/shims',
    '/root/bin',
    '/opt/node/bin',
    '/c',
    '/c/node_modules',
    '/c/1-m/1.0-p',
    '/c/1-m/1.1-a',
    '/tmp',
    '/tmp/venv',
    '/tmp/venv/bin',
  ]);
  const programs = new Map([
    ['/root/.pyenv/shims/python3', null],
    ['/tmp/venv/bin/python3', '/usr/bin/python3.11'],
    ['/opt/node/bin/node', null],
  ]);
  const fs: FileProbes = {
    isDirectory: (dir) => dirs.has(dir),
    isExecutable: (file) => programs.has(file),
    realPath: (file) => programs.get(file) ?? (dirs.has(file) || programs.has(file) ? file : null),
    entries: () => [],
  };
  const env = {
    PATH: ['/tmp/venv/bin', '/root/.pyenv/shims', '/root/bin', '/root', '/c', '/opt/node/bin', 'relative/bin'].join(
      ':',
    ),
  };
  const layout = sandboxLayout(
    {
      writable: '/c/1-m/1.1-a',
      cwd: '/c/1-m/1.1-a',
      workspace: null,
      courseRoot: '/c',
      courseDotDir: '/c/.codelabgen',
      home: '/root',
      network: false,
      programs: ['python3'],
      env,
      nodePath: '/opt/node/bin/node',
      prerequisiteDirs: ['/c/1-m/1.0-p'],
    },
    fs,
  );
  assert.deepEqual(layout.hidden, ['/home', '/root', '/run', '/root', '/c']);
  assert.deepEqual(layout.readOnly, [
    '/tmp/venv',
    '/tmp/venv/bin',
    '/root/.pyenv/shims',
    '/root/bin',
    '/c/node_modules',
    '/c/1-m/1.0-p',
  ]);
  const python = sandboxLayout(
    {
      writable: '/c/1-m/1.1-a',
      cwd: '/c/1-m/1.1-a',
      workspace: null,
      courseRoot: '/c',
      courseDotDir: '/c/.codelabgen',
      home: '/root',
      network: false,
      programs: ['python3'],
      env: { PATH: '/root/.pyenv/shims:/usr/bin' },
      nodePath: '/opt/node/bin/node',
      prerequisiteDirs: [],
    },
    fs,
  );
  assert.deepEqual(
    python.readOnly,
    ['/root/.pyenv', '/root/.pyenv/shims', '/c/node_modules'],
    'a pyenv shim brings its whole pyenv root',
  );
  dirs.add('/run/systemd/resolve');
  const resolved = {
    ...fs,
    realPath: (file: string) =>
      file === '/etc/resolv.conf' ? '/run/systemd/resolve/stub-resolv.conf' : fs.realPath(file),
  };
  const input = { ...LESSON_1_1, home: '/root', programs: [], env: { PATH: '' } };
  assert.deepEqual(
    sandboxLayout({ ...input, network: true }, resolved).readOnly,
    ['/c/node_modules', '/run/systemd/resolve'],
    'with network, DNS through systemd-resolved keeps working',
  );
  assert.deepEqual(sandboxLayout({ ...input, network: false }, resolved).readOnly, ['/c/node_modules']);
});

test(
  'sandboxLayout: for python-uv the workspace (course root or module folder) is bound read-only, the lesson ' +
    'folder alone writable, docs/ read-only unless a symlink',
  () => {
    const dirs = new Set([
      '/home',
      '/root',
      '/run',
      '/c',
      '/c/.codelabgen',
      '/c/.git',
      '/c/.hg',
      '/c/node_modules',
      '/c/1-m',
      '/c/1-m/1.1-a',
      '/c/1-m/1.1-a/docs',
      '/c/1-m/1.2-b',
      '/c/1-m/1.2-b/docs',
    ]);
    const fs: FileProbes = {
      isDirectory: (dir) => dirs.has(dir),
      isExecutable: () => false,
      realPath: (file) => (file === '/c/1-m/1.2-b/docs' ? '/elsewhere' : dirs.has(file) ? file : null),
      entries: () => [],
    };
    const input = {
      writable: '/c/1-m/1.1-a',
      courseRoot: '/c',
      courseDotDir: '/c/.codelabgen',
      home: '/root',
      network: false,
      programs: [],
      env: { PATH: '' },
      nodePath: '/usr/bin/node',
      prerequisiteDirs: [],
    };
    for (const workspace of ['/c', '/c/1-m']) {
      const layout = sandboxLayout({ ...input, cwd: workspace, workspace }, fs);
      assert.equal(layout.writable, '/c/1-m/1.1-a');
      assert.deepEqual(layout.readOnly, ['/c/node_modules', workspace]);
      assert.deepEqual(layout.rehidden, ['/c/.codelabgen', '/c/.git', '/c/.hg'], 'history and its config hidden again');
      assert.deepEqual(layout.protectedInWritable, ['/c/1-m/1.1-a/docs']);
      assert.deepEqual(layout.unreadable, [], 'no credential files in the workspace');
    }
    // Credentials beside the workspace's pyproject.toml cannot be read; a link counts by its target, the lesson's own and other names stay.
    const files = new Map([
      ['/c/.env', '/c/.env'],
      ['/c/.env.local', '/c/1-m/secrets.env'],
      ['/c/.npmrc', '/c/1-m/1.1-a/.npmrc'],
      ['/c/.pypirc', '/c/.codelabgen/pypirc'],
      ['/c/.netrc', '/etc/netrc'],
      ['/c/.envrc', '/c/.envrc'],
      ['/c/pyproject.toml', '/c/pyproject.toml'],
    ]);
    const withFiles: FileProbes = {
      ...fs,
      realPath: (file) => files.get(file) ?? fs.realPath(file),
      entries: (dir) => (dir === '/c' ? [...files.keys()].map((file) => path.basename(file)) : []),
    };
    const unreadable = sandboxLayout({ ...input, cwd: '/c', workspace: '/c' }, withFiles).unreadable;
    assert.deepEqual(unreadable, ['/c/.env', '/c/1-m/secrets.env']);
    assert.deepEqual(
      sandboxArgv({ ...LAYOUT, readOnly: [...LAYOUT.readOnly, '/c'], unreadable }).filter(
        (_, index, argv) => argv[index - 1] === '/dev/null' || argv[index + 1] === '/dev/null',
      ),
      ['--ro-bind', '/c/.env', '--ro-bind', '/c/1-m/secrets.env'],
    );
    assert.deepEqual(
      sandboxLayout({ ...input, writable: '/c/1-m/1.2-b', cwd: '/c/1-m/1.2-b', workspace: null }, fs)
        .protectedInWritable,
      [],
      'a docs symlink is not bound through (the docs check after the run catches changes)',
    );
  },
);

test("sandboxLayout: a toolchain's prefix in the home folder is bound back with its credential files unreadable (cargo's)", () => {
  const dirs = new Set(['/home', '/root', '/run', '/root/.cargo', '/root/.cargo/bin', '/c', '/c/1-m/1.1-a']);
  const files = new Map([
    ['/root/.cargo/credentials.toml', '/root/.cargo/credentials.toml'],
    ['/root/.cargo/credentials', '/root/.cargo/credentials'],
    ['/root/.cargo/config.toml', '/root/.cargo/config.toml'],
    ['/root/.cargo/bin/cargo', '/root/.cargo/bin/cargo'],
  ]);
  const fs: FileProbes = {
    isDirectory: (dir) => dirs.has(dir),
    isExecutable: (file) => file === '/root/.cargo/bin/cargo',
    realPath: (file) => files.get(file) ?? (dirs.has(file) ? file : null),
    entries: (dir) => [...files.keys()].filter((file) => path.dirname(file) === dir).map((file) => path.basename(file)),
  };
  const layout = sandboxLayout(
    {
      writable: '/c/1-m/1.1-a',
      cwd: '/c/1-m/1.1-a',
      workspace: null,
      courseRoot: '/c',
      courseDotDir: '/c/.codelabgen',
      home: '/root',
      network: false,
      programs: ['cargo'],
      env: { PATH: '/root/.cargo/bin:/usr/bin' },
      nodePath: '/usr/bin/node',
      prerequisiteDirs: [],
    },
    fs,
  );
  assert.ok(layout.readOnly.includes('/root/.cargo'), `the prefix is bound back: ${layout.readOnly}`);
  assert.deepEqual(layout.unreadable, ['/root/.cargo/credentials.toml', '/root/.cargo/credentials']);
});

test('hiddenInSandbox: a program under a hidden folder or /tmp is hidden unless a bind shows it again; .codelabgen stays hidden', () => {
  const layout: SandboxLayout = {
    writable: '/home/me/course/1-m/1.1-a',
    cwd: '/home/me/course/1-m/1.1-a',
    hidden: ['/home', '/root', '/run', '/home/me', '/home/me/course'],
    readOnly: ['/home/me/.nvm/versions/node/v22', '/tmp/tools', '/home/me/course'],
    rehidden: ['/home/me/course/.codelabgen'],
    protectedInWritable: [],
    network: false,
  };
  const cases: Array<[string, boolean]> = [
    ['/usr/bin/python3', false],
    ['/home/me/.nvm/versions/node/v22/bin/node', false],
    ['/home/me/bin/tool', true],
    ['/root/tool', true],
    ['/tmp/tools/uv', false],
    ['/tmp/other/uv', true],
    ['/home/me/course/1-m/1.1-a/run.sh', false],
    ['/home/me/course/.codelabgen/run', true],
  ];
  for (const [file, hidden] of cases) assert.equal(hiddenInSandbox(layout, file), hidden, file);
});

test('SANDBOX_MOUNTS: a toolchain on a file system the sandbox mounts anew (/dev/shm, /tmp) is bound back; a program there without a bind is hidden', () => {
  const dirs = new Set(['/home', '/c', '/c/1-m/1.1-a', '/dev', '/dev/shm', '/dev/shm/uv', '/dev/shm/uv/bin', '/tmp']);
  const fs: FileProbes = {
    isDirectory: (dir) => dirs.has(dir),
    isExecutable: (file) => file === '/dev/shm/uv/bin/uv',
    realPath: (file) => (dirs.has(file) || file === '/dev/shm/uv/bin/uv' ? file : null),
    entries: () => [],
  };
  const layout = sandboxLayout(
    { ...LESSON_1_1, home: undefined, network: false, programs: ['uv'], env: { PATH: '/dev/shm/uv/bin' } },
    fs,
  );
  assert.deepEqual(layout.readOnly, ['/dev/shm/uv', '/dev/shm/uv/bin']);
  assert.equal(hiddenInSandbox(layout, '/dev/shm/uv/bin/uv'), false);
  for (const file of ['/dev/shm/other/uv', '/dev/null-tools/uv', '/proc/tools/uv', '/tmp/x/uv'])
    assert.equal(hiddenInSandbox(layout, file), true, file);
  // Every file system sandboxArgv mounts anew is on the list (or is one of the layout's hidden folders):
  // a new mount that the binds back and hiddenInSandbox() would not know of fails here.
  const argv = sandboxArgv(layout);
  const mounted = argv.flatMap((option, i) => (['--tmpfs', '--dev', '--proc'].includes(option) ? [argv[i + 1]!] : []));
  assert.ok(mounted.length >= 4, `mounts: ${mounted.join(' ')}`);
  for (const target of mounted)
    assert.ok(
      SANDBOX_MOUNTS.some((mount) => target === mount || target.startsWith(`${mount}/`)) ||
        [...layout.hidden, ...layout.rehidden].includes(target),
      `sandboxArgv mounts ${target} anew, which SANDBOX_MOUNTS does not name`,
    );
});

test('chooseSandbox: auto falls back to none, required refuses naming the setting, off from the course runs as auto', () => {
  const unusable = () => ({ usable: false as const, reason: '/nope not found' });
  const env = { CODELABGEN_BWRAP: '/nope', PATH: '' };
  assert.equal(
    chooseSandbox(
      'off',
      { ...env, CODELABGEN_SANDBOX: 'off' },
      () => true,
      () => assert.fail('CODELABGEN_SANDBOX=off must not probe'),
    ),
    null,
  );
  // A course's config cannot turn the sandbox off: it is sandboxed as with auto, and told so.
  assert.deepEqual(
    sandboxChoice(
      'off',
      env,
      () => true,
      () => ({ usable: true }),
    ),
    {
      bwrap: '/nope',
      warning: {
        message:
          'verify.sandbox is off in .codelabgen/config.yaml, but a course cannot turn the sandbox off: lesson tests run in the sandbox',
        hints: ['to run them without it on this machine, set CODELABGEN_SANDBOX=off'],
      },
    },
  );
  const fellBack = sandboxChoice('off', env, () => true, unusable);
  assert.equal(fellBack.bwrap, null);
  assert.equal(
    fellBack.warning?.message,
    'verify.sandbox is "off" in .codelabgen/config.yaml, which a course cannot set (it runs as "auto"), and bubblewrap ' +
      'cannot run here (/nope not found): lesson tests run WITHOUT the sandbox (no isolation of files, network or processes)',
  );
  assert.deepEqual(
    sandboxChoice(
      'auto',
      env,
      () => true,
      () => ({ usable: true }),
    ),
    { bwrap: '/nope', warning: null },
  );
  assert.equal(
    chooseSandbox('auto', env, () => true, unusable),
    null,
  );
  assert.equal(
    chooseSandbox(
      'auto',
      env,
      () => true,
      () => ({ usable: true }),
    ),
    '/nope',
  );
  assert.equal(
    chooseSandbox(
      'auto',
      { PATH: '/sbin:/usr/bin' },
      (file) => file === '/usr/bin/bwrap',
      () => ({ usable: true }),
    ),
    '/usr/bin/bwrap',
  );
  assert.throws(
    () => chooseSandbox('required', env, () => true, unusable),
    (error: unknown) =>
      error instanceof RefusalError &&
      error.message ===
        'verify.sandbox is "required" in .codelabgen/config.yaml but bubblewrap cannot run here (/nope not found); install bubblewrap or change verify.sandbox',
  );
  assert.throws(
    () => chooseSandbox('required', { PATH: '' }, () => false),
    /bubblewrap cannot run here \(bwrap is not on PATH\)/,
  );
});

test('CODELABGEN_SANDBOX overrides verify.sandbox (CI sets required); a wrong value is refused', () => {
  const unusable = () => ({ usable: false as const, reason: '/nope not found' });
  assert.throws(
    () => chooseSandbox('auto', { CODELABGEN_BWRAP: '/nope', CODELABGEN_SANDBOX: 'required' }, () => true, unusable),
    (error: unknown) =>
      error instanceof RefusalError &&
      error.message ===
        'CODELABGEN_SANDBOX is "required" but bubblewrap cannot run here (/nope not found); install bubblewrap or change CODELABGEN_SANDBOX',
  );
  for (const configured of ['required', 'auto', 'off'] as const)
    assert.deepEqual(
      sandboxChoice(configured, { CODELABGEN_BWRAP: '/nope', CODELABGEN_SANDBOX: 'off' }, () => true, unusable),
      { bwrap: null, warning: null },
      `the machine's CODELABGEN_SANDBOX=off turns off verify.sandbox: ${configured}, without a warning`,
    );
  assert.equal(
    sandboxChoice(
      'off',
      { CODELABGEN_BWRAP: '/nope', CODELABGEN_SANDBOX: 'auto' },
      () => true,
      () => ({ usable: true }),
    ).warning,
    null,
    "CODELABGEN_SANDBOX=auto is the machine's word: the course's off is not mentioned",
  );
  assert.equal(
    chooseSandbox('auto', { CODELABGEN_BWRAP: '/nope', CODELABGEN_SANDBOX: '' }, () => true, unusable),
    null,
  );
  assert.throws(
    () => chooseSandbox('auto', { CODELABGEN_SANDBOX: 'yes' }, () => true, unusable),
    /^RefusalError: CODELABGEN_SANDBOX=yes: expected one of auto, required, off$/,
  );
});

test('removeNewCaches removes the cache folders a run created and keeps the ones that were there', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-caches-'));
  scratch.push(dir);
  mkdirSync(path.join(dir, '__pycache__'));
  const before = presentCaches(dir);
  for (const name of ['.pytest_cache', '.benchmarks', 'keep']) mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, '.pytest_cache', 'v'), 'x');
  assert.deepEqual(removeNewCaches(dir, before), ['.pytest_cache', '.benchmarks']);
  assert.deepEqual(
    ['.pytest_cache', '.benchmarks', '__pycache__', 'keep'].map((name) => existsSync(path.join(dir, name))),
    [false, false, true, true],
  );
});

// --- end to end: verify.sandbox modes ---

test('verify.sandbox: required refuses when bubblewrap is not usable (exit 2, one error, nothing changed); auto runs without and says so', async () => {
  const required = await course(
    [{ id: '1.1', files: { 'probe.mjs': 'console.log("{}");\n' }, spec: custom('1.1') }],
    'required',
  );
  const before = snapshot(required.root);
  const refused = verify(required, ['1.1'], { CODELABGEN_BWRAP: '/nonexistent/bwrap' });
  assert.equal(refused.code, 2);
  assert.equal(
    refused.stderr,
    [
      'error: verify.sandbox is "required" in .codelabgen/config.yaml but bubblewrap cannot run here ' +
        '(/nonexistent/bwrap not found); install bubblewrap or change verify.sandbox',
      'hint: install it: apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora); it needs unprivileged user namespaces',
      'hint: or, to run lesson tests without a sandbox, set verify.sandbox: auto in .codelabgen/config.yaml (sandbox when available), ' +
        'or CODELABGEN_SANDBOX=off on this machine',
      '',
    ].join('\n'),
  );
  assert.equal(
    verify(required, ['--all', '--stage-at-least', 'code'], { CODELABGEN_BWRAP: '/nonexistent/bwrap' }).code,
    2,
    '--all refuses too, before running any lesson',
  );
  assert.deepEqual(snapshot(required.root), before);
  const auto = await course(
    [{ id: '1.1', files: { 'probe.mjs': 'console.log("{}");\n' }, spec: custom('1.1') }],
    'auto',
  );
  const ran = verify(auto, ['1.1', '--json'], { CODELABGEN_BWRAP: '/nonexistent/bwrap' });
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(json(ran).sandbox, 'none');
  assert.match(verify(auto, ['1.1'], { CODELABGEN_BWRAP: '/nonexistent/bwrap' }).stdout, /, sandbox: none\)$/m);
  // A course's off runs as auto: without a usable bwrap it falls back too, and the warning says both.
  const off = await course([{ id: '1.1', files: { 'probe.mjs': 'console.log("{}");\n' }, spec: custom('1.1') }], 'off');
  const fellBack = verify(off, ['1.1', '--json'], {
    CODELABGEN_BWRAP: '/nonexistent/bwrap',
    CODELABGEN_SANDBOX: undefined,
  });
  assert.equal(fellBack.code, 0, fellBack.stderr);
  assert.equal(json(fellBack).sandbox, 'none');
  assert.deepEqual(fellBack.stderr.split('\n'), [
    'warning: verify.sandbox is "off" in .codelabgen/config.yaml, which a course cannot set (it runs as "auto"), and bubblewrap ' +
      'cannot run here (/nonexistent/bwrap not found): lesson tests run WITHOUT the sandbox (no isolation of files, network or processes)',
    'hint: install it: apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora); it needs unprivileged user namespaces',
    'hint: set verify.sandbox: required to refuse instead, or CODELABGEN_SANDBOX=off to run unsandboxed without this warning',
    '',
  ]);
});

const ESCAPE_PROBE = `import fs from 'node:fs';
let write;
try { fs.writeFileSync(process.argv[2], 'escaped'); write = 'ok'; } catch (error) { write = error.code; }
console.log(JSON.stringify({ write, pid1: fs.readFileSync('/proc/1/cmdline', 'utf8').split('\\0')[0].split('/').at(-1) }));
`;

test(
  "a course's verify.sandbox: off is not honoured: its tests run in the sandbox, with a warning; only CODELABGEN_SANDBOX=off runs them without",
  needsBwrap,
  async () => {
    const made = await course([{ id: '1.1', files: { 'probe.mjs': ESCAPE_PROBE }, spec: custom('1.1') }], 'off');
    // The test writes a file at the course root: outside its lesson folder, where the sandbox shows an empty throwaway folder.
    const outside = path.join(made.root, 'escaped.txt');
    writeFileSync(
      path.join(made.dir, 'lessons/1.1/spec.yaml'),
      custom('1.1').replace('probe.mjs]', `probe.mjs, "${outside}"]`),
    );
    const warning = [
      'warning: verify.sandbox is off in .codelabgen/config.yaml, but a course cannot turn the sandbox off: lesson tests run in the sandbox',
      'hint: to run them without it on this machine, set CODELABGEN_SANDBOX=off',
      '',
    ].join('\n');
    const boxed = verify(made, ['1.1', '--json'], { CODELABGEN_SANDBOX: undefined });
    assert.equal(boxed.code, 0, boxed.stderr);
    assert.equal(json(boxed).sandbox, 'bwrap');
    assert.deepEqual(probeReport(boxed), { write: 'ok', pid1: 'bwrap' }, "written into the sandbox's throwaway folder");
    assert.equal(existsSync(outside), false, 'the course root outside the lesson folder was written');
    assert.equal(boxed.stderr, warning);
    const all = verify(made, ['--all', '--stage-at-least', 'code', '--json'], { CODELABGEN_SANDBOX: undefined });
    assert.equal(all.code, 0, all.stderr);
    assert.equal(
      all.stderr
        .split('\n')
        .filter((line) => line.startsWith('warning: '))
        .join('\n'),
      warning.split('\n')[0],
      'told once for --all',
    );
    assert.equal(existsSync(outside), false);
    // The machine's word turns it off: no sandbox, no warning, and the write lands.
    const open = verify(made, ['1.1', '--json'], UNSANDBOXED);
    assert.equal(open.code, 0, open.stderr);
    assert.equal(json(open).sandbox, 'none');
    assert.equal(probeReport(open).write, 'ok');
    assert.equal(readFileSync(outside, 'utf8'), 'escaped');
    assert.equal(open.stderr, '');
  },
);

test(
  'a test program the sandbox cannot start (a hidden folder) is a refusal naming it, not a failed run; so is one found only in the lesson folder or missing',
  needsBwrap,
  async () => {
    const made = await course(
      [
        { id: '1.1', files: { 'a.txt': '' } },
        {
          id: '1.2',
          files: { 'lesson-tool': '#!/bin/sh\n' },
          spec: 'lesson: "1.2"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [lesson-tool]\n',
        },
        {
          id: '1.3',
          files: { 'a.txt': '' },
          spec: 'lesson: "1.3"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [/nonexistent/codelabgen-no-such-program]\n',
        },
      ],
      'required',
    );
    // A program directly in a folder of the course root: there on the host, hidden with the course in the sandbox.
    mkdirSync(path.join(made.root, 'tools'));
    writeFileSync(path.join(made.root, 'tools/run'), '#!/bin/sh\n', { mode: 0o755 });
    mkdirSync(path.join(made.dir, 'lessons/1.1'), { recursive: true });
    writeFileSync(
      path.join(made.dir, 'lessons/1.1/spec.yaml'),
      `lesson: "1.1"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: ["${made.root}/tools/run"]\n`,
    );
    const before = snapshot(made.root);
    const inLesson = verify(made, ['1.2'], { PATH: ['.', dirOf(made, '1.2'), process.env.PATH].join(path.delimiter) });
    assert.equal(inLesson.code, 2);
    assert.equal(
      inLesson.stderr.split('\n')[0],
      'error: lesson 1.2: cannot run "lesson-tool": not found (is it installed and on PATH? PATH folders ' +
        'inside the lesson folder and relative ones are not searched)',
    );
    const missing = verify(made, ['1.3']);
    assert.equal(missing.code, 2);
    assert.equal(
      missing.stderr,
      'error: lesson 1.3: cannot run "/nonexistent/codelabgen-no-such-program": not found or not executable\n',
    );
    const result = verify(made, ['1.1']);
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      [
        `error: lesson 1.1: the sandbox could not start the tests: ${made.root}/tools/run is in a folder the sandbox hides, and no bind shows it again`,
        'hint: the sandbox shows the lesson folder and the toolchain on PATH (docs/verify.md); or set CODELABGEN_SANDBOX=off to run without it',
        '',
      ].join('\n'),
    );
    assert.deepEqual(snapshot(made.root), before, 'no run-result written');
  },
);

// --- end to end: what a sandboxed test cannot do ---

const SECRET = `sandbox-secret-${process.pid}`;
const ENV_PROBE = `import fs from 'node:fs';
const found = [];
for (const pid of fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name))) {
  try { if (fs.readFileSync('/proc/' + pid + '/environ', 'utf8').includes(process.argv[2])) found.push(Number(pid)); } catch {}
}
let parent;
try { parent = fs.readFileSync('/proc/' + process.ppid + '/environ', 'utf8').includes(process.argv[2]); } catch (error) { parent = error.code; }
console.log(JSON.stringify({ found, parent, own: process.env.SECRET_TOKEN ?? null }));
`;

test(
  "a sandboxed test cannot read the caller's environment through /proc (unsandboxed it can)",
  needsBwrap,
  async () => {
    const lesson = (id: string): LessonFixture => ({
      id,
      files: { 'probe.mjs': ENV_PROBE },
      spec: `lesson: "${id}"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [node, probe.mjs, ${SECRET}]\n`,
    });
    const sandboxed = verify(await course([lesson('1.1')], 'required'), ['1.1', '--json'], { SECRET_TOKEN: SECRET });
    assert.equal(sandboxed.code, 0, sandboxed.stderr);
    assert.equal(json(sandboxed).sandbox, 'bwrap');
    assert.deepEqual(probeReport(sandboxed), { found: [], parent: false, own: null });
    const open = verify(await course([lesson('1.1')], 'auto'), ['1.1', '--json'], {
      SECRET_TOKEN: SECRET,
      ...UNSANDBOXED,
    });
    assert.equal(json(open).sandbox, 'none');
    assert.equal(
      probeReport(open).parent,
      true,
      "without the sandbox, /proc/$PPID/environ is codelabgen's whole environment",
    );
  },
);

const NET_PROBE = `import net from 'node:net';
import os from 'node:os';
const interfaces = Object.keys(os.networkInterfaces()).sort();
const attempt = (host) => new Promise((resolve) => {
  const socket = net.connect(Number(process.argv[2]), host);
  socket.on('connect', () => { socket.destroy(); resolve('connected'); });
  socket.on('error', (error) => resolve(error.code));
});
// 10.0.2.2 is where slirp4netns would forward to the host's loopback without --disable-host-loopback.
const [loopback, slirpHost] = await Promise.all([attempt('127.0.0.1'), attempt('10.0.2.2')]);
console.log(JSON.stringify({ interfaces, loopback, slirpHost }));
`;
/** slirp4netns, which network: true needs (the sandbox's network without the host's loopback). */
const slirp = (process.env.PATH ?? '')
  .split(path.delimiter)
  .map((dir) => path.join(dir, 'slirp4netns'))
  .find((file) => MACHINE_PROBES.isExecutable(file));

test("a sandboxed test cannot reach the host's loopback, with or without network: true (then slirp4netns gives it a network of its own)", {
  skip: needsBwrap.skip || (slirp === undefined && 'slirp4netns is not installed (apt-get install slirp4netns)'),
}, async () => {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const lesson = (id: string, extra: string): LessonFixture => ({
    id,
    files: { 'probe.mjs': NET_PROBE },
    spec: `lesson: "${id}"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [node, probe.mjs, "${port}"]\n${extra}`,
  });
  const made = await course([lesson('1.1', ''), lesson('1.2', 'network: true\n')], 'required');
  const verifyAsync = async (id: string) => cliAsync(['verify', id, '--json', '--course', made.root]).done;
  try {
    const [offline, online] = [await verifyAsync('1.1'), await verifyAsync('1.2')];
    assert.equal(online.code, 0, online.stderr);
    assert.deepEqual(probeReport(offline), { interfaces: ['lo'], loopback: 'ECONNREFUSED', slirpHost: 'ENETUNREACH' });
    assert.deepEqual(probeReport(online), {
      interfaces: ['lo', 'tap0'],
      loopback: 'ECONNREFUSED',
      slirpHost: 'ENETUNREACH',
    });
  } finally {
    server.close();
  }
});

test('network: true without slirp4netns is refused (exit 2), never given the host network', needsBwrap, async () => {
  const made = await course(
    [{ id: '1.1', files: { 'probe.mjs': 'console.log("ran")\n' }, spec: custom('1.1', 'network: true\n') }],
    'required',
  );
  // PATH holds only node's folder: no slirp4netns, no unshare.
  const result = verify(made, ['1.1'], {
    PATH: path.dirname(process.execPath),
    CODELABGEN_BWRAP: bwrap ?? '/usr/bin/bwrap',
  });
  assert.equal(result.code, 2, result.stderr);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(
    lines[0],
    "error: lesson 1.1: network: true needs slirp4netns, which give the sandbox the internet but not this machine's loopback; it is not on PATH",
  );
  assert.match(lines[1]!, /^hint: install it: apt-get install slirp4netns/);
  assert.equal(existsSync(path.join(made.dir, 'runs')), false, 'no run recorded');
});

const FILE_PROBE = `import fs from 'node:fs';
const [course, home, other] = process.argv.slice(2);
const attempt = (action) => { try { action(); return 'ok'; } catch (error) { return error.code; } };
console.log(JSON.stringify({
  state: attempt(() => fs.readFileSync(course + '/.codelabgen/state.json')),
  stateRelative: attempt(() => fs.readFileSync('../../.codelabgen/config.yaml')),
  otherLesson: attempt(() => fs.readFileSync(other + '/secret.txt')),
  home: attempt(() => fs.readFileSync(home + '/secret.txt')),
  rootBashrc: attempt(() => fs.readFileSync('/root/.bashrc')),
  writeCourse: attempt(() => fs.writeFileSync(course + '/escaped.txt', 'x')),
  writeHome: attempt(() => fs.writeFileSync(home + '/escaped.txt', 'x')),
  writeUsr: attempt(() => fs.writeFileSync('/usr/escaped-${process.pid}.txt', 'x')),
  writeTmp: attempt(() => fs.writeFileSync('/tmp/escaped-${process.pid}.txt', 'x')),
  writeLesson: attempt(() => fs.writeFileSync('written.txt', 'x')),
  writeDev: attempt(() => fs.writeFileSync('/dev/escaped.txt', 'x')),
  writeShm: attempt(() => fs.writeFileSync('/dev/shm/x', 'x')),
  shmMiB: (({ bsize, blocks }) => Math.round((bsize * blocks) / 1048576))(fs.statfsSync('/dev/shm')),
}));
`;

test(
  'a sandboxed test sees neither .codelabgen, other lessons nor $HOME, and writes only its lesson folder',
  needsBwrap,
  async () => {
    const outside = existsSync('/var/tmp') ? '/var/tmp' : tmpdir(); // outside /tmp, so the course and home hiding is what hides them
    const home = mkdtempSync(path.join(outside, 'codelabgen-home-'));
    scratch.push(home);
    writeFileSync(path.join(home, 'secret.txt'), 'secret');
    const made = await course(
      [
        { id: '1.1', files: { 'probe.mjs': FILE_PROBE } },
        { id: '1.2', files: { 'secret.txt': 'other lesson' } },
      ],
      'required',
      outside,
    );
    mkdirSync(path.dirname(path.join(made.dir, 'lessons/1.1/spec.yaml')), { recursive: true });
    writeFileSync(
      path.join(made.dir, 'lessons/1.1/spec.yaml'),
      `lesson: "1.1"\ntitle: T\ngoal: G\nruntime: custom\ntest_command: [node, probe.mjs, "${made.root}", "${home}", "${dirOf(made, '1.2')}"]\n`,
    );
    const result = verify(made, ['1.1', '--json'], { HOME: home });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(probeReport(result), {
      state: 'ENOENT',
      stateRelative: 'ENOENT',
      otherLesson: 'ENOENT',
      home: 'ENOENT',
      rootBashrc: 'ENOENT',
      writeCourse: 'ok',
      writeHome: 'ok',
      writeUsr: 'EROFS',
      writeTmp: 'ok',
      writeLesson: 'ok',
      // /dev was a tmpfs of half the RAM, and /dev/shm too: both around the 512 MiB cap of /tmp
      writeDev: 'EROFS',
      writeShm: 'ok',
      shmMiB: 512,
    });
    assert.ok(
      !existsSync(path.join(made.root, 'escaped.txt')) && !existsSync(path.join(home, 'escaped.txt')),
      'writes to the hidden course and home went to a throwaway tmpfs',
    );
    assert.ok(!existsSync(`/tmp/escaped-${process.pid}.txt`), '/tmp is private');
    assert.equal(
      readFileSync(path.join(dirOf(made, '1.1'), 'written.txt'), 'utf8'),
      'x',
      'the lesson folder is writable',
    );
  },
);

test(
  "a course whose node_modules is a symlink (to the caller's ~/.ssh) does not bind its target; a real node_modules is still shown",
  needsBwrap,
  async () => {
    const outside = existsSync('/var/tmp') ? '/var/tmp' : tmpdir(); // outside /tmp, so the course and home hiding is what hides them
    const home = mkdtempSync(path.join(outside, 'codelabgen-home-'));
    scratch.push(home);
    mkdirSync(path.join(home, '.ssh'));
    writeFileSync(path.join(home, '.ssh/id_rsa'), 'private key');
    const read = `import fs from 'node:fs';
let found;
try { found = fs.readFileSync(process.argv[2] + '/node_modules/id_rsa', 'utf8'); } catch (error) { found = error.code; }
console.log(JSON.stringify({ found }));
`;
    const made = await course([{ id: '1.1', files: { 'probe.mjs': read } }], 'required', outside);
    mkdirSync(path.join(made.dir, 'lessons/1.1'), { recursive: true });
    writeFileSync(
      path.join(made.dir, 'lessons/1.1/spec.yaml'),
      custom('1.1').replace('probe.mjs]', `probe.mjs, "${made.root}"]`),
    );
    // As a cloned course would ship it: a relative link (git keeps symlinks) from the course root to the home folder.
    symlinkSync(path.relative(made.root, path.join(home, '.ssh')), path.join(made.root, 'node_modules'));
    const linked = verify(made, ['1.1', '--json'], { HOME: home });
    assert.equal(linked.code, 0, linked.stderr);
    assert.deepEqual(probeReport(linked), { found: 'ENOENT' });
    rmSync(path.join(made.root, 'node_modules'));
    mkdirSync(path.join(made.root, 'node_modules'));
    writeFileSync(path.join(made.root, 'node_modules/id_rsa'), 'a package file');
    assert.deepEqual(probeReport(verify(made, ['1.1', '--json'], { HOME: home })), { found: 'a package file' });
  },
);

/** Every descriptor of every process it can see that leads to a folder, and whether it wrote `.codelabgen/escaped.txt` through it. */
const FD_PROBE = `import fs from 'node:fs';
const found = [];
for (const pid of fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name))) {
  let fds = [];
  try { fds = fs.readdirSync('/proc/' + pid + '/fd'); } catch {}
  for (const fd of fds) {
    const link = '/proc/' + pid + '/fd/' + fd;
    try { if (!fs.statSync(link).isDirectory()) continue; } catch { continue; }
    let wrote = 'ok';
    try { fs.writeFileSync(link + '/.codelabgen/escaped.txt', 'x'); } catch (error) { wrote = error.code; }
    found.push({ fd: Number(fd), target: fs.readlinkSync(link), wrote });
  }
}
console.log(JSON.stringify(found.filter((entry) => entry.fd > 2)));
`;

test(
  "a folder or file the caller left open reaches neither the sandbox nor the tests (a folder's descriptor would lead past every bind)",
  needsBwrap,
  async () => {
    const made = await course([{ id: '1.1', files: { 'probe.mjs': FD_PROBE }, spec: custom('1.1') }], 'required');
    const [folder, file] = [openSync(made.root, 'r'), openSync(path.join(made.root, 'caller.log'), 'a')];
    try {
      // The CLI inherits them without close-on-exec at 40 and 41, as from a shell's `exec 40<course 41>>caller.log`.
      const stdio = Array.from({ length: 42 }, (_, fd): 'pipe' | 'ignore' | number =>
        fd === 40 ? folder : fd === 41 ? file : fd <= 2 ? 'pipe' : 'ignore',
      );
      const run = spawnSync(process.execPath, [CLI, 'verify', '1.1', '--json', '--course', made.root], {
        stdio,
        env: { ...process.env, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 180_000,
      });
      const result = { code: run.status, signal: run.signal, stdout: `${run.stdout}`, stderr: `${run.stderr}` };
      assert.equal(result.code, 0, result.stderr);
      assert.equal(json(result).sandbox, 'bwrap');
      assert.deepEqual(probeReport(result), [], 'no process in the sandbox holds a folder of the host');
      assert.ok(!existsSync(path.join(made.dir, 'escaped.txt')), '.codelabgen/ was not written');
      const fds = json(result).output_tail;
      assert.ok(!fds.includes(made.root), fds);
    } finally {
      closeSync(folder);
      closeSync(file);
    }
  },
);

test(
  'a sandboxed test can read (not write) the lessons its lesson lists as prerequisites, transitively, and no other',
  needsBwrap,
  async () => {
    const read = `import fs from 'node:fs';
const attempt = (action) => { try { return action(); } catch (error) { return error.code; } };
const probe = (dir) => ({
  read: attempt(() => fs.readFileSync(dir + '/code.txt', 'utf8')),
  write: attempt(() => fs.writeFileSync(dir + '/new.txt', 'x')) ?? 'ok',
});
console.log(JSON.stringify(Object.fromEntries(process.argv.slice(2).map((dir) => [dir.split('/').at(-1), probe(dir)]))));
`;
    const made = await course(
      ['1.1', '1.2', '1.3', '1.4'].map((id) => ({ id, files: { 'code.txt': id, 'probe.mjs': read } })),
      'required',
    );
    const lesson = (id: string, prerequisites: string[]) =>
      `      - { id: "${id}", slug: ${registeredLesson(id).slug}, title: T, prerequisites: [${prerequisites.map((p) => `"${p}"`).join(', ')}] }\n`;
    writeFileSync(
      path.join(made.dir, 'curriculum.yaml'),
      `title: T\nmodules:\n  - id: "1"\n    slug: basics\n    title: Basics\n    lessons:\n` +
        `${lesson('1.1', [])}${lesson('1.2', ['1.1'])}${lesson('1.3', [])}${lesson('1.4', ['1.2'])}`,
    );
    const others = ['1.1', '1.2', '1.3'].map((id) => `"${dirOf(made, id)}"`).join(', ');
    mkdirSync(path.join(made.dir, 'lessons/1.4'), { recursive: true });
    writeFileSync(
      path.join(made.dir, 'lessons/1.4/spec.yaml'),
      custom('1.4').replace('[node, probe.mjs]', `[node, probe.mjs, ${others}]`),
    );
    const result = verify(made, ['1.4', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const name = (id: string) => path.basename(dirOf(made, id));
    assert.deepEqual(probeReport(result), {
      [name('1.1')]: { read: '1.1', write: 'EROFS' },
      [name('1.2')]: { read: '1.2', write: 'EROFS' },
      [name('1.3')]: { read: 'ENOENT', write: 'ENOENT' },
    });
    assert.ok(
      !existsSync(path.join(dirOf(made, '1.3'), 'new.txt')),
      'a lesson that is not a prerequisite is not there at all',
    );
  },
);

// --- end to end: nothing outlives the timeout or a stopped verify ---

/** A lesson test that starts a `setsid` grandchild carrying TOKEN, marks that it started, and hangs. */
const HANG = (token: string) => `import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${token}-grandchild'], { detached: true, stdio: 'ignore' }).unref();
fs.writeFileSync('started', '');
setInterval(() => {}, 1000);
`;

test('a setsid grandchild dies with the timeout in the sandbox (unsandboxed it survives)', needsBwrap, async () => {
  const token = `${TOKEN}-timeout`;
  const made = await course([{ id: '1.1', files: { 'probe.mjs': HANG(token) }, spec: custom('1.1') }], 'required');
  const result = verify(made, ['1.1', '--timeout', '5', '--json']);
  assert.equal(result.code, 1, result.stderr);
  assert.deepEqual([json(result).timed_out, json(result).sandbox], [true, 'bwrap']);
  assert.ok(existsSync(path.join(dirOf(made, '1.1'), 'started')), 'the grandchild was started before the timeout');
  await assertNoSurvivors(token);
  const open = await course(
    [{ id: '1.1', files: { 'probe.mjs': HANG(`${token}-open`) }, spec: custom('1.1') }],
    'auto',
  );
  assert.equal(json(verify(open, ['1.1', '--timeout', '5', '--json'], UNSANDBOXED)).timed_out, true);
  const escaped = processesWith(`${token}-open`);
  leftovers.push(...escaped);
  for (const pid of escaped) process.kill(pid, 'SIGKILL');
  assert.equal(
    escaped.length,
    1,
    'unsandboxed, a setsid grandchild leaves the process group and outlives the timeout (docs/verify.md)',
  );
});

async function startedVerify(
  made: Course,
  detached = false,
  env: NodeJS.ProcessEnv = {},
): Promise<ReturnType<typeof spawn>> {
  const child = detached
    ? spawn(process.execPath, [CLI, 'verify', '1.1', '--course', made.root], {
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, NO_COLOR: '1' },
      })
    : cliAsync(['verify', '1.1', '--course', made.root], { env }).child;
  const marker = path.join(dirOf(made, '1.1'), 'started');
  for (let i = 0; i < 1500 && !existsSync(marker); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(existsSync(marker), 'the lesson test started');
  return child;
}

/** Asserts that no process carries `token`; survivors are killed when the file ends, so a failure leaves nothing running. */
async function assertNoSurvivors(token: string, message?: string): Promise<void> {
  const survivors = await survivorsOf(token);
  leftovers.push(...survivors);
  assert.deepEqual(survivors, [], message);
}

const exitOf = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

test('SIGTERM to verify ends the sandboxed test, setsid grandchild included, then exits 143', needsBwrap, async () => {
  const token = `${TOKEN}-sigterm`;
  const made = await course([{ id: '1.1', files: { 'probe.mjs': HANG(token) }, spec: custom('1.1') }], 'required');
  const child = await startedVerify(made);
  assert.equal(processesWith(token).length, 1, 'the grandchild runs');
  const closed = exitOf(child);
  child.kill('SIGTERM');
  assert.equal(await closed, 143);
  await assertNoSurvivors(token);
  await assertNoSurvivors(made.root, 'no bwrap or test process left');
  assert.deepEqual(stepCgroupsOf(child.pid!), [], "verify's step cgroup (as root) is removed when it exits");
});

/** The pids cgroups (process-limit.ts) a codelabgen process made and left, where it makes them (cgroup v1, as root). */
function stepCgroupsOf(pid: number): string[] {
  const line = /^\d+:pids:(\/.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'));
  const parent = line?.[1] === undefined ? null : path.join('/sys/fs/cgroup/pids', line[1]);
  if (parent === null || !existsSync(parent)) return [];
  return readdirSync(parent).filter((name) => name.startsWith(`codelabgen-step.${pid}.`));
}

test("Ctrl-C (SIGINT to the terminal's process group) ends the sandboxed test and exits 130", needsBwrap, async () => {
  const token = `${TOKEN}-sigint`;
  const made = await course([{ id: '1.1', files: { 'probe.mjs': HANG(token) }, spec: custom('1.1') }], 'required');
  const child = await startedVerify(made, true);
  const closed = exitOf(child);
  process.kill(-child.pid!, 'SIGINT');
  assert.equal(await closed, 130);
  await assertNoSurvivors(token);
});

test("unsandboxed, SIGTERM to verify still kills the test's process group before exiting 143", async () => {
  const token = `${TOKEN}-open-sigterm`;
  const hang = `import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${token}-grandchild'], { stdio: 'ignore' });
fs.writeFileSync('started', '');
setInterval(() => {}, 1000);
`;
  const made = await course([{ id: '1.1', files: { 'probe.mjs': hang }, spec: custom('1.1') }], 'auto');
  const child = await startedVerify(made, false, UNSANDBOXED);
  assert.equal(processesWith(token).length, 1, 'the grandchild runs');
  const closed = exitOf(child);
  child.kill('SIGTERM');
  assert.equal(await closed, 143);
  await assertNoSurvivors(token);
});
