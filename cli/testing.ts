// Test helpers (imported only by *.test.ts): run the built CLI as a real process in a temporary
// course, and snapshot files to prove that a refusal changed nothing.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedCourse } from './course-cache.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = path.join(REPO_ROOT, 'bin', 'codelabgen.cjs');

// The CLI tests run the built dist/: a test file run after an edit builds it first (once, whichever
// test file gets there first; the others wait), so `node --test cli/x.test.ts` needs no rebuild by
// hand. Under npm test the build step ran already and this is a look at a few hundred mtimes.
const BUILT_FROM = [
  'bin',
  'cli',
  'content-schemas',
  'pipeline',
  'site',
  'scripts/build.mjs',
  'scripts/build-site.mjs',
  'scripts/barrel-imports.mjs',
  'scripts/bundle-config.mjs',
];

function newestSource(): number {
  let newest = 0;
  for (const entry of BUILT_FROM) {
    const at = path.join(REPO_ROOT, entry);
    const files = entry.includes('.') ? [''] : readdirSync(at, { recursive: true, encoding: 'utf8' });
    for (const file of files) {
      if (file.endsWith('.test.ts') || file.includes('fixtures') || file.includes('node_modules')) continue;
      const stat = statSync(path.join(at, file), { throwIfNoEntry: false });
      if (stat?.isFile() && stat.mtimeMs > newest) newest = stat.mtimeMs;
    }
  }
  return newest;
}

function builtAt(): number {
  return statSync(path.join(REPO_ROOT, 'dist', 'state.cjs'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

function ensureBuilt(): void {
  if (process.env.CODELABGEN_TEST_CLI !== undefined || builtAt() >= newestSource()) return;
  const lock = path.join(REPO_ROOT, '.cache', 'test-build.lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; builtAt() < newestSource(); waited += 250) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is building: wait for it (a lock older than 5 minutes was left by a crash).
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000)
        rmSync(lock, { recursive: true, force: true });
      Atomics.wait(pause, 0, 0, 250);
      if (waited > 600_000) throw new Error('cli/testing.ts: waited 10 minutes for another test file to build dist/');
      continue;
    }
    try {
      const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`cli/testing.ts: node scripts/build.mjs failed:\n${build.stderr}`);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
ensureBuilt();

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  timeoutMs?: number;
}

function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '10' };
  delete env.CODELABGEN_COURSE; // from the test's own environment; `extra` may set them
  delete env.CODELABGEN_TEST_FAULT;
  Object.assign(env, extra);
  for (const [key, value] of Object.entries(extra)) if (value === undefined) delete env[key];
  return env;
}

/** Runs the built CLI synchronously. */
export function cli(args: readonly string[], options: RunOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: childEnv(options.env),
    input: options.input,
    encoding: 'utf8',
    // A hang guard, not a budget: the Node tests run at nice 10 beside the browser tests, and on a
    // busy machine a 1 s command took over 60 s (a refusal of `site build`, killed, exit 143).
    // SIGKILL: the CLI handles SIGTERM in JavaScript, which a process stuck in synchronous code never
    // runs, and spawnSync would wait on it; what a killed CLI leaves (a site worker) the runner sweeps.
    timeout: options.timeoutMs ?? 180_000,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Runs the built CLI as a child process; resolves when it ends. */
export function cliAsync(
  args: readonly string[],
  options: RunOptions = {},
): { child: ReturnType<typeof spawn>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: childEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  // Killed past `timeoutMs` when given (a long-running command without one is ended by its test, or
  // by scripts/node-tests.ts's timeout per file): a hung CLI fails its test instead of waiting on.
  const timer =
    options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, done };
}

/**
 * A new temp folder, removed when the test file ends (so is every course copy made here, each in a
 * folder of its own): a run of the Node tests used to leave thousands of them in $TMPDIR.
 */
export function tempDir(prefix = 'codelabgen-test-'): string {
  return removeWhenFileEnds(mkdtempSync(path.join(tmpdir(), prefix)));
}

/**
 * A new temp folder in memory where the machine has one (/dev/shm, a tmpfs; else as tempDir), removed
 * when the test file ends: for a log with a sparse tail of gigabytes, whose hole a tmpfs reads as zeros
 * without filling the page cache (a read of a 2 GiB hole on ext4 took 0.4-5 s of kernel CPU on a busy
 * 2-core machine, on /dev/shm 0.06 s). What the code under test reads is the same bytes either way.
 */
export function memoryTempDir(prefix = 'codelabgen-test-'): string {
  try {
    return removeWhenFileEnds(mkdtempSync(path.join('/dev/shm', prefix)));
  } catch {
    return tempDir(prefix); // no /dev/shm here, or not writable
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

const scratchDirs: string[] = [];

// On exit rather than with node:test's after(): called inside a test, after() runs when that test
// ends, which would remove folders (and course templates) that later tests still use.
function removeWhenFileEnds(dir: string): string {
  if (scratchDirs.length === 0) process.once('exit', removeScratchDirs);
  scratchDirs.push(dir);
  return dir;
}

function removeScratchDirs(): void {
  for (const dir of scratchDirs.splice(0)) {
    try {
      removeDir(dir);
    } catch {
      // a leftover temp folder (say, one a test left read-only) must not turn a passing file into a failure
    }
  }
}

/** A temp folder removed when the test file ends (tempDir). */
export function scratchDir(prefix?: string): string {
  return tempDir(prefix);
}

const templates = new Map<string, string>();

/**
 * A copy of the course `make` builds at the root it is given, made once per test file for each
 * `key`: copying a course takes far less than the CLI calls that made it. Returns the copy's root.
 */
export function copyOfCourse(key: string, make: (root: string) => void): string {
  let template = templates.get(key);
  if (template === undefined) {
    template = path.join(scratchDir('codelabgen-template-'), 'course');
    make(template);
    templates.set(key, template);
  }
  const root = path.join(tempDir(), 'course');
  cpSync(template, root, { recursive: true, verbatimSymlinks: true });
  return root;
}

/**
 * A copy of the course `make` builds, made once per build of the CLI and shared by every test file of
 * the run (cli/course-cache.ts): for fixtures that depend only on `key`, the built CLI and the fixture
 * helpers (this file, cli/protocol-fixture.ts). Returns the copy's root.
 */
export function sharedCopyOfCourse(key: string, make: (root: string) => void): string {
  const root = path.join(tempDir(), 'course');
  cpSync(sharedCourseTemplate(key, make), root, { recursive: true, verbatimSymlinks: true });
  return root;
}

/** The shared course itself (read-only: copy it, as sharedCopyOfCourse does, before changing anything). */
export function sharedCourseTemplate(key: string, make: (root: string) => void): string {
  return path.join(cachedCourse(key, make), 'course');
}

/** Runs `codelabgen init` at `root`; throws when it fails. */
export function initCourse(root: string, title: string): void {
  const result = cli(['init', root, '--title', title]);
  if (result.code !== 0) throw new Error(`init failed: ${result.stderr}`);
}

/** A fresh course in a temp dir (a copy of one `codelabgen init` per run); returns its root. */
export function makeCourse(title = 'Test course'): string {
  return sharedCopyOfCourse(`init ${title}`, (root) => initCourse(root, title));
}

/** A fresh course (as makeCourse; every copy's temp folder is removed when the test file ends). */
export function scratchCourse(title?: string): string {
  return makeCourse(title);
}

/**
 * A fresh course with `count` acknowledged events after init (`state log acked --data n=1`, n=2...),
 * as the store's crash, corruption and disk fault tests start from; a copy of one made per run,
 * removed when the test file ends (tempDir).
 */
export function ackedCourse(count = 2): string {
  const root = sharedCopyOfCourse(`init Test course, ${count} acked events`, (dir) => {
    initCourse(dir, 'Test course');
    for (let n = 1; n <= count; n++) {
      const acked = cli(['state', 'log', 'acked', '--data', `n=${n}`], { cwd: dir });
      if (acked.code !== 0) throw new Error(`state log acked failed: ${acked.stderr}`);
    }
  });
  return root;
}

/** Path → sha256 of every file under `dir` (for "nothing changed" assertions). */
export function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile())
        files.set(
          child,
          createHash('sha256')
            .update(readFileSync(path.join(dir, child)))
            .digest('hex'),
        );
    }
  };
  walk('');
  return files;
}

export function readEvents(root: string): Array<Record<string, unknown>> {
  const text = readFileSync(path.join(root, '.codelabgen', 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function readState(root: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, '.codelabgen', 'state.json'), 'utf8')) as Record<string, unknown>;
}

export function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The repository as another user can read it, for tests that run the CLI or the code as a second
 * user: the checkout itself when every folder above it can be searched by others, else a copy of
 * hard links (no .git; the bootstrapped Node in .cache/ included) in a 0755 temp folder, since a
 * checkout in a private (0700) folder, as CI's often is, cannot be reached. Null when neither works
 * (the temp folder on another file system). `node`: the Node binary to run there.
 */
export function repoForOtherUsers(): { root: string; node: string } | null {
  const searchable = (dir: string): boolean =>
    dir === path.dirname(dir) || ((statSync(dir).mode & 0o001) !== 0 && searchable(path.dirname(dir)));
  const nodeFor = (root: string) =>
    process.execPath.startsWith(`${REPO_ROOT}${path.sep}`)
      ? path.join(root, path.relative(REPO_ROOT, process.execPath))
      : process.execPath;
  if (searchable(REPO_ROOT) && searchable(path.dirname(process.execPath)))
    return { root: REPO_ROOT, node: process.execPath };
  const copy = scratchDir('codelabgen-repo-for-others-');
  chmodSync(copy, 0o755);
  const entries = readdirSync(REPO_ROOT)
    .filter((name) => name !== '.git')
    .map((name) => path.join(REPO_ROOT, name));
  const copied = spawnSync('cp', ['-al', ...entries, copy], { encoding: 'utf8' });
  if (copied.status !== 0) return null;
  return { root: copy, node: nodeFor(copy) };
}

/** util-linux `script` runs a command on a pseudo-terminal (onTerminal). */
export const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

/**
 * Runs the built CLI on a pseudo-terminal (util-linux `script`); returns everything it wrote there.
 * `stderrTo`: a file that gets its stderr instead (stdout alone on the terminal).
 */
export function onTerminal(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  { stderrTo }: { stderrTo?: string } = {},
): { code: number | null; screen: string } {
  const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ') + (stderrTo ? ` 2>${quote(stderrTo)}` : '');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 300_000,
  });
  return { code: result.status, screen: result.stdout.replace(/\r\n/g, '\n') };
}

/**
 * Runs the built CLI on a pseudo-terminal (util-linux `script`, TERM=xterm) until `drawn(screen)` holds,
 * then ends it by Ctrl-C through the terminal, as a user does; resolves with everything it wrote
 * there. No fixed wait: on a loaded machine a command can start seconds late (120 s: a hang guard).
 */
export async function untilDrawnOnTerminal(
  args: string[],
  env: NodeJS.ProcessEnv,
  drawn: (screen: string) => boolean,
): Promise<string> {
  const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
  const child = spawn('script', ['-qec', [process.execPath, CLI, ...args].map(quote).join(' '), '/dev/null'], {
    env: { ...process.env, TERM: 'xterm', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
    timeout: 120_000,
    killSignal: 'SIGKILL',
  });
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    if (drawn(screen) && child.stdin.writable) child.stdin.end('\x03'); // Ctrl-C
  });
  await new Promise((resolve) => child.once('close', resolve));
  return screen;
}

/** Commits everything in `root` to a new git repository, author and committer dated `date` (ISO). */
export function commitToGit(root: string, date: string): void {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.org',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.org',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'course'],
  ]) {
    const git = spawnSync('git', ['-C', root, ...args], { env, encoding: 'utf8' });
    if (git.status !== 0) throw new Error(`git ${args[0]} in ${root}: ${git.stderr}`);
  }
}
