// The bubblewrap sandbox for lesson tests: finding and probing bwrap (once per process), choosing
// it by `verify.sandbox`, and the bwrap options (what is hidden, read-only, writable). docs/verify.md
// says what it protects against. Used by verify-lesson.ts; run-tests.ts runs the argv.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_MODES, type SandboxMode } from '../../content-schemas/index.ts';
import { ARTIFACTS } from '../course/course.ts';
import { isInside } from '../course/inside.ts';
import { refuse } from '../course/errors.ts';
import { VCS_FOLDERS } from '../course/vcs.ts';
import { APPARMOR_SYSCTL, diagnoseBwrapFailure } from './bwrap-diagnosis.ts';
import type { ChildEnv } from './child-env.ts';
import { NETWORK_BLOCK_FD, RESOLV_CONF_FD } from './sandbox-network.ts';

/** Names the bwrap program to use instead of the first `bwrap` on PATH (tests point it at a missing file). */
export const BWRAP_VARIABLE = 'CODELABGEN_BWRAP';
export const SANDBOX_HOME = '/tmp/home';
/** Size cap of the private /tmp, in bytes (bwrap's default is half of RAM). */
const TMP_SIZE_BYTES = 512 * 1024 * 1024;
/** Size cap of each empty folder put over a hidden one (it holds only the mount points of the binds back), in bytes. */
const HIDDEN_SIZE_BYTES = 16 * 1024 * 1024;
/** Folders that hold the caller's secrets (home folders, runtime sockets), replaced by empty ones. */
export const HIDDEN_SYSTEM_FOLDERS = ['/home', '/root', '/run'] as const;
/**
 * The file systems the sandbox mounts anew over the host's (sandboxArgv: its own /dev with an empty
 * /dev/shm, /proc and /tmp): nothing of the host's under them is seen inside unless bound back. The one
 * list that sandboxArgv's mounts, the toolchain's binds back (sandboxLayout) and hiddenInSandbox() read:
 * a runner under /dev/shm was neither bound back nor refused, and failed inside as a missing file.
 */
export const SANDBOX_MOUNTS = ['/dev', '/proc', '/tmp'] as const;
/**
 * Own namespaces for everything (PID, network, IPC, mounts, user), no nested user namespaces, no
 * capabilities (a root caller keeps all of them otherwise), no controlling terminal (TIOCSTI), and
 * the whole sandbox dies with codelabgen.
 */
const ISOLATION = [
  '--unshare-all',
  '--unshare-user',
  '--disable-userns',
  '--die-with-parent',
  '--new-session',
  '--cap-drop',
  'ALL',
];

/** Why bwrap cannot run (its message, and what stops it when known) and the fixes, one hint each. */
export type Availability = { usable: true } | { usable: false; reason: string; fixes?: readonly string[] };

/** The bwrap to run lesson steps with (null: unsandboxed), and what the caller must be told about it. */
export interface SandboxChoice {
  bwrap: string | null;
  /**
   * A warning line and its hints, set when `auto` falls back to no sandbox or when the course's
   * `verify.sandbox: off` was not honoured (both never silent).
   */
  warning: { message: string; hints: readonly string[] } | null;
}

/** The machine's word on the sandbox: it overrides verify.sandbox, and only it can turn the sandbox off. */
export const SANDBOX_VARIABLE = 'CODELABGEN_SANDBOX';

export interface SandboxLayout {
  /** The only folder the tests may write: the lesson folder, whatever the runtime. */
  writable: string;
  /** Working folder of the command (the lesson folder, or for python-uv the uv workspace holding it). */
  cwd: string;
  /** Folders replaced by an empty tmpfs: the system ones, the caller's home, the course. */
  hidden: string[];
  /** Folders under a hidden one bound back read-only: the toolchain, the course's node_modules, prerequisite lessons, the uv workspace. */
  readOnly: string[];
  /**
   * Course folders hidden again when a bind back contains them (a uv workspace at the course root): `.codelabgen/`
   * and the version-control folders, `.git/`, `.hg/`, ... (pipeline/course/vcs.ts).
   */
  rehidden: string[];
  /**
   * Credential files at the top of a folder bound back (a uv workspace's `.env`, `.npmrc`, ...; `~/.cargo`'s
   * `credentials.toml`): /dev/null over each, which bwrap mounts nodev (EACCES).
   */
  unreadable?: string[];
  /** Folders inside the writable one bound back read-only over it: the lesson's `docs/`. */
  protectedInWritable: string[];
  /** Whether slirp4netns connects the sandbox's network namespace (network: true). */
  network: boolean;
  /** With network: where /etc/resolv.conf leads (its real path), which the sandbox's own DNS setting goes over. */
  resolvConf?: string | null;
}

/** `CODELABGEN_BWRAP` when set, else the first executable `bwrap` on PATH, else null. */
export function findBwrap(env: NodeJS.ProcessEnv, isExecutable: (file: string) => boolean): string | null {
  const given = env[BWRAP_VARIABLE];
  if (given !== undefined && given !== '') return given;
  const dir = (env.PATH ?? '')
    .split(path.delimiter)
    .find((entry) => path.isAbsolute(entry) && isExecutable(path.join(entry, 'bwrap')));
  return dir === undefined ? null : path.join(dir, 'bwrap');
}

const probed = new Map<string, Availability>();

/** Whether `bwrap` can build the sandbox here (user namespaces allowed, flags known): one spawn per process. */
export function probeBwrap(bwrap: string): Availability {
  const known = probed.get(bwrap);
  if (known) return known;
  const result = spawnSync(
    bwrap,
    [...ISOLATION, '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', '/bin/true'],
    { env: {}, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 10_000 },
  );
  const error = result.error as NodeJS.ErrnoException | undefined;
  const firstLine =
    (result.stderr ?? '').split('\n').find((line) => line.trim() !== '') ?? `exit ${result.status ?? result.signal}`;
  const availability: Availability =
    error?.code === 'ENOENT'
      ? { usable: false, reason: `${bwrap} not found` }
      : error
        ? { usable: false, reason: `${bwrap}: ${error.message}` }
        : result.status === 0
          ? { usable: true }
          : unusable(firstLine.trim(), result.stderr ?? '');
  probed.set(bwrap, availability);
  return availability;
}

/** A failed probe: bwrap's first line, with the cause and fixes when its message is one bwrap-diagnosis.ts knows. */
function unusable(firstLine: string, stderr: string): Availability {
  const diagnosis = diagnoseBwrapFailure(stderr, restrictedUserns());
  return diagnosis === null
    ? { usable: false, reason: firstLine }
    : { usable: false, reason: `${firstLine}: ${diagnosis.cause}`, fixes: diagnosis.fixes };
}

/** /proc/sys/kernel/apparmor_restrict_unprivileged_userns ("1" on Ubuntu 23.10+), or null where it does not exist. */
function restrictedUserns(): string | null {
  try {
    return readFileSync(`/proc/sys/${APPARMOR_SYSCTL.replaceAll('.', '/')}`, 'utf8');
  } catch {
    return null; // no such setting (not Ubuntu, or no AppArmor): the message alone decides
  }
}

/**
 * The bwrap program to run tests with, or null to run them unsandboxed: `auto` sandboxes when bwrap
 * is usable, `required` refuses when it is not, and only CODELABGEN_SANDBOX=off never sandboxes.
 */
export function chooseSandbox(
  configured: SandboxMode,
  env: NodeJS.ProcessEnv,
  isExecutable: (file: string) => boolean,
  probe = probeBwrap,
): string | null {
  return sandboxChoice(configured, env, isExecutable, probe).bwrap;
}

/**
 * chooseSandbox(), with the warning the caller prints (falling back silently hides a missing protection).
 * The course's config is untrusted content (a cloned course, a pull request in CI), so its
 * `verify.sandbox: off` runs as `auto` and says so: only the machine (CODELABGEN_SANDBOX=off) turns
 * the sandbox off (docs/security.md, "A course that turns the sandbox off").
 */
export function sandboxChoice(
  configured: SandboxMode,
  env: NodeJS.ProcessEnv,
  isExecutable: (file: string) => boolean,
  probe = probeBwrap,
): SandboxChoice {
  // $CODELABGEN_SANDBOX overrides verify.sandbox for one machine (CI sets required: docs/verify.md).
  const override = env[SANDBOX_VARIABLE];
  if (override !== undefined && override !== '' && !(SANDBOX_MODES as readonly string[]).includes(override))
    refuse(`${SANDBOX_VARIABLE}=${override}: expected one of ${SANDBOX_MODES.join(', ')}`);
  if (override === 'off') return { bwrap: null, warning: null };
  const courseOff = !override && configured === 'off';
  const mode: SandboxMode = override ? (override as SandboxMode) : courseOff ? 'auto' : configured;
  const setting = override
    ? `${SANDBOX_VARIABLE} is "${mode}"`
    : courseOff
      ? `verify.sandbox is "off" in ${ARTIFACTS.config}, which a course cannot set (it runs as "auto"),`
      : `verify.sandbox is "${mode}" in ${ARTIFACTS.config}`;
  const bwrap = findBwrap(env, isExecutable);
  const availability: Availability = bwrap === null ? { usable: false, reason: 'bwrap is not on PATH' } : probe(bwrap);
  if (availability.usable) {
    if (!courseOff) return { bwrap, warning: null };
    return {
      bwrap,
      warning: {
        message:
          `verify.sandbox is off in ${ARTIFACTS.config}, but a course cannot turn the sandbox off: ` +
          'lesson tests run in the sandbox',
        hints: [`to run them without it on this machine, set ${SANDBOX_VARIABLE}=off`],
      },
    };
  }
  const fixes = availability.fixes ?? [
    'install it: apt-get install bubblewrap (Debian, Ubuntu), dnf install bubblewrap (Fedora); it needs unprivileged user namespaces',
  ];
  if (mode === 'required') {
    refuse(
      `${setting} but bubblewrap cannot run here (${availability.reason}); ` +
        `${availability.fixes ? 'let it create its namespace' : 'install bubblewrap'} or change ` +
        `${override ? SANDBOX_VARIABLE : 'verify.sandbox'}`,
      ...fixes,
      override
        ? `or, to run lesson tests without a sandbox, set ${SANDBOX_VARIABLE}=auto (sandbox when available) or off`
        : `or, to run lesson tests without a sandbox, set verify.sandbox: auto in ${ARTIFACTS.config} (sandbox when ` +
            `available), or ${SANDBOX_VARIABLE}=off on this machine`,
    );
  }
  return {
    bwrap: null,
    warning: {
      message:
        `${setting} and bubblewrap cannot run here (${availability.reason}): lesson tests run WITHOUT the ` +
        'sandbox (no isolation of files, network or processes)',
      hints: [
        ...fixes,
        `set ${override ? `${SANDBOX_VARIABLE}=required` : 'verify.sandbox: required'} to refuse instead, ` +
          `or ${SANDBOX_VARIABLE}=off to run unsandboxed without this warning`,
      ],
    },
  };
}

/** bwrap's options, up to and including `--`: the command's argv follows. */
export function sandboxArgv(layout: SandboxLayout): string[] {
  const hidden = outermost(layout.hidden.filter((dir) => !SANDBOX_MOUNTS.some((mount) => isInside(dir, mount))));
  const readOnly = outermost(layout.readOnly.filter((dir) => !isInside(dir, layout.writable)));
  // With network, the sandbox shares the network namespace `unshare --net` made for it, which slirp4netns connects (sandbox-network.ts).
  const argv = [...ISOLATION, ...(layout.network ? ['--share-net'] : []), '--ro-bind', '/', '/'];
  for (const dir of hidden) argv.push('--size', String(HIDDEN_SIZE_BYTES), '--tmpfs', dir);
  // bwrap's /dev and /dev/shm are tmpfs of half the RAM: /dev read-only, /dev/shm capped like /tmp.
  argv.push('--dev', '/dev', '--remount-ro', '/dev', '--size', String(TMP_SIZE_BYTES), '--tmpfs', '/dev/shm');
  argv.push('--proc', '/proc', '--size', String(TMP_SIZE_BYTES), '--tmpfs', '/tmp');
  for (const dir of readOnly) argv.push('--ro-bind', dir, dir);
  for (const dir of layout.rehidden) {
    if ([...readOnly, layout.writable].some((bound) => isInside(dir, bound)))
      argv.push('--size', String(HIDDEN_SIZE_BYTES), '--tmpfs', dir);
  }
  // bwrap mounts every --ro-bind nodev: the device put over a credential file cannot be opened (EACCES).
  for (const file of layout.unreadable ?? []) argv.push('--ro-bind', '/dev/null', file);
  argv.push('--bind', layout.writable, layout.writable);
  for (const dir of layout.protectedInWritable) argv.push('--ro-bind', dir, dir);
  if (layout.network) {
    // DNS through slirp4netns's forwarder, and the command waits until the network is up.
    argv.push('--ro-bind-data', String(RESOLV_CONF_FD), layout.resolvConf ?? '/etc/resolv.conf');
    argv.push('--block-fd', String(NETWORK_BLOCK_FD));
  }
  argv.push('--dir', SANDBOX_HOME, '--chdir', layout.cwd, '--json-status-fd', '3', '--');
  return argv;
}

/**
 * Whether `file` lies in a folder the sandbox hides (a system folder, the home folder, the course,
 * SANDBOX_MOUNTS) and no bind shows again: a program there cannot be started inside it.
 */
export function hiddenInSandbox(layout: SandboxLayout, file: string): boolean {
  const inAny = (dirs: readonly string[]) => dirs.some((dir) => isInside(file, dir));
  if (inAny(layout.rehidden)) return true;
  if (inAny([...layout.readOnly, layout.writable])) return false;
  return inAny([...layout.hidden, ...SANDBOX_MOUNTS]);
}

/** The child's environment inside the sandbox: home and temp folders point into the private /tmp. */
export function sandboxEnv(env: ChildEnv): ChildEnv {
  const inside: ChildEnv = { ...env, HOME: SANDBOX_HOME, TMPDIR: '/tmp' };
  for (const name of ['TMP', 'TEMP']) if (inside[name] !== undefined) inside[name] = '/tmp';
  return inside;
}

export interface LayoutInput {
  /** The lesson folder: the only writable one. */
  writable: string;
  cwd: string;
  /** For python-uv, the uv workspace above the lesson folder (shown read-only: uv reads its pyproject.toml, uv.lock and members), else null. */
  workspace: string | null;
  courseRoot: string;
  courseDotDir: string;
  /** The caller's home folder (HOME), hidden wherever it is. */
  home: string | undefined;
  network: boolean;
  /** The programs that will run (argv[0] of the test command and of its prepare step). */
  programs: readonly string[];
  env: ChildEnv;
  /** The node running codelabgen: tests use it, so its install prefix stays visible. */
  nodePath: string;
  /** Folders of the lessons this one builds on (curriculum prerequisites): its code may import theirs. */
  prerequisiteDirs: readonly string[];
}

/** What the file system probes answer; passed in so tests can stand them in. */
export interface FileProbes {
  isDirectory(dir: string): boolean;
  isExecutable(file: string): boolean;
  /** The real path, or null when it does not exist. */
  realPath(file: string): string | null;
  /** The names in a folder ([] when it cannot be read). */
  entries(dir: string): string[];
}

/**
 * Credentials kept beside a project's files (a git-ignored `.env`, `.env.local`; npm's, PyPI's,
 * netrc's and git's tokens) or in a toolchain's own folder (cargo's `credentials.toml`, formerly
 * `credentials`, in `~/.cargo`), which a folder bound back read-only would otherwise show.
 */
const CREDENTIAL_FILE = /^(?:\.env(?:\..+)?|\.npmrc|\.pypirc|\.netrc|\.git-credentials|credentials(?:\.toml)?)$/;

/**
 * Hides the system folders, the home folder and the course, then binds back read-only the
 * toolchain, the course's node_modules, the prerequisite lessons and the uv workspace (with
 * `.codelabgen/` and the version-control folders hidden again, and the credential files at the top of
 * each folder bound back unreadable), and writable the lesson folder with its `docs/` read-only.
 */
export function sandboxLayout(input: LayoutInput, fs: FileProbes): SandboxLayout {
  const real = (dir: string) => fs.realPath(dir) ?? dir;
  const courseRoot = real(input.courseRoot);
  const writable = real(input.writable);
  // docs/ only when it is a folder of its own, not a symlink (binding through one would mount over its target).
  const docs = path.join(writable, 'docs');
  const workspace =
    input.workspace === null
      ? []
      : [real(input.workspace)].filter((dir) => dir !== writable && isInside(dir, courseRoot));
  const hidden = [...HIDDEN_SYSTEM_FOLDERS, ...(input.home ? [real(input.home)] : []), courseRoot].filter(
    (dir) => dir !== '/' && fs.isDirectory(dir),
  );
  // node_modules only when it is a folder of its own: bwrap binds what a link leads to, and a course
  // can ship `node_modules -> ../../.ssh` (git keeps symlinks).
  const nodeModules = path.join(courseRoot, 'node_modules');
  const candidates = [
    ...toolchainFolders(input.programs, input.env, input.nodePath, fs.realPath, fs.isExecutable),
    ...(fs.realPath(nodeModules) === nodeModules ? [nodeModules] : []),
    ...input.prerequisiteDirs.map(real),
  ];
  // With systemd-resolved, /etc/resolv.conf links into /run: its folder is bound back so the sandbox's own resolv.conf can go over it.
  const resolvConf = input.network ? fs.realPath('/etc/resolv.conf') : null;
  if (resolvConf !== null) candidates.push(path.dirname(resolvConf));
  const rehidden = [real(input.courseDotDir), ...VCS_FOLDERS.map((name) => path.join(courseRoot, name))].filter(
    fs.isDirectory,
  );
  const readOnly = [
    ...new Set([
      ...foldersToRebind(candidates.filter(fs.isDirectory), [...hidden, ...SANDBOX_MOUNTS], real(input.courseDotDir)),
      ...workspace,
    ]),
  ];
  return {
    writable,
    cwd: real(input.cwd),
    hidden,
    readOnly,
    rehidden,
    // Every folder bound back over a hidden one: a toolchain's prefix in the home folder as well as the workspace.
    unreadable: [...new Set(readOnly.flatMap((dir) => credentialFiles(dir, writable, rehidden, fs)))],
    protectedInWritable: fs.isDirectory(docs) && fs.realPath(docs) === docs ? [docs] : [],
    network: input.network,
    resolvConf,
  };
}

/**
 * The credential files at the top of a folder bound back, as the sandbox sees them: each real file inside
 * the folder (a link's target too), not in the lesson folder (its own) nor in a folder hidden again.
 */
function credentialFiles(folder: string, writable: string, rehidden: readonly string[], fs: FileProbes): string[] {
  const files = fs
    .entries(folder)
    .filter((name) => CREDENTIAL_FILE.test(name))
    .map((name) => fs.realPath(path.join(folder, name)))
    .filter(
      (file): file is string =>
        file !== null &&
        isInside(file, folder) &&
        !fs.isDirectory(file) &&
        ![writable, ...rehidden].some((dir) => isInside(file, dir)),
    );
  return [...new Set(files)];
}

/** Folders the toolchain may need that a hidden folder covers: the program's install prefix (as found and as resolved), each PATH entry. */
export function toolchainFolders(
  programs: readonly string[],
  env: ChildEnv,
  nodePath: string,
  resolve: (file: string) => string | null,
  isExecutable: (file: string) => boolean,
): string[] {
  const folders = [prefixOf(resolve(nodePath) ?? nodePath)];
  const pathEntries = (env.PATH ?? '').split(path.delimiter).filter((entry) => path.isAbsolute(entry));
  for (const program of programs) {
    const found = path.isAbsolute(program)
      ? program
      : pathEntries.map((entry) => path.join(entry, program)).find(isExecutable);
    if (found === undefined) continue;
    folders.push(prefixOf(found));
    const real = resolve(found);
    if (real !== null) folders.push(prefixOf(real));
  }
  return [...folders, ...pathEntries];
}

/** `/opt/node/bin/node` → `/opt/node`; `.venv/bin/python3` → `.venv`. */
function prefixOf(program: string): string {
  return path.dirname(path.dirname(program));
}

/** Keeps the folders strictly inside one of `hidden` (re-binding a hidden folder itself would undo the hiding) and not holding `.codelabgen/`. */
export function foldersToRebind(
  candidates: readonly string[],
  hidden: readonly string[],
  courseDotDir: string,
): string[] {
  return candidates.filter(
    (dir) => hidden.some((root) => dir !== root && isInside(dir, root)) && !isInside(courseDotDir, dir),
  );
}

/** Drops folders inside another of the list (one bind covers them), keeping order. */
function outermost(dirs: readonly string[]): string[] {
  const unique = [...new Set(dirs)];
  return unique.filter((dir) => !unique.some((other) => other !== dir && isInside(dir, other)));
}
