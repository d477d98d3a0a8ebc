// Which command runs a lesson's tests: the runtime (lesson spec overrides course config), its
// default argv or a test_command, the working folder, and the child's environment.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config, LessonSpec, LessonState, Runtime } from '../../content-schemas/index.ts';
import { LessonSpecParser, parseDataFile, readTextFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { childEnv, resolveProgram, type ChildEnv } from './child-env.ts';
import { refuseShellOperators } from './shell-operators.ts';

export interface TestCommand {
  runtime: Runtime;
  argv: string[];
  /** Absolute working folder. */
  cwd: string;
  env: ChildEnv;
  /** A step to run first (`npm ci`), or null. */
  prepare: string[] | null;
}

/** pytest would write `.pytest_cache/` into the lesson folder. */
const PYTEST_NO_CACHE = ['-p', 'no:cacheprovider'];

/** Dropping sys.path[0] (the lesson folder) keeps a lesson's own pytest.py from answering for pytest. */
export const PYTEST_PROBE = ['-c', 'import sys; del sys.path[0]; import pytest'];

/** Checks that touch the machine, passed in so tests can stand them in. */
export interface Probes {
  isExecutable(file: string): boolean;
}

/** What choosing the command asks of the machine; verify-lesson.ts runs the pytest check as a lesson step. */
export interface CommandProbes extends Probes {
  /** Whether `python` (an absolute path) imports pytest, run in the lesson folder as the tests would run. */
  hasPytest(python: string, cwd: string, env: ChildEnv): Promise<boolean>;
}

export const MACHINE_PROBES: Probes = {
  isExecutable: (file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false; // missing or not executable: not this one
    }
  },
};

/** The lesson's spec, or null when it has none yet. */
export function loadLessonSpec(course: Course, id: string): LessonSpec | null {
  const file = abs(course, ARTIFACTS.lessonSpec(id));
  return existsSync(file) ? parseDataFile(LessonSpecParser, file, ARTIFACTS.lessonSpec(id)) : null;
}

export async function resolveTestCommand(
  course: Course,
  lesson: LessonState,
  lessonDir: string,
  config: Config,
  parentEnv: NodeJS.ProcessEnv,
  probes: CommandProbes,
): Promise<TestCommand> {
  const spec = loadLessonSpec(course, lesson.id);
  const runtime = spec?.runtime ?? config.runtime;
  const given = givenCommand(lesson.id, spec, config, runtime);
  const env = childEnv(parentEnv);
  const installScripts = spec?.install_scripts ?? false;
  if (!installScripts) Object.assign(env, NO_SOURCE_BUILDS);
  switch (runtime) {
    case 'node':
      return given ? plain(runtime, given, lessonDir, env) : nodeCommand(lessonDir, env, installScripts);
    case 'python':
      return plain(runtime, given ?? (await pythonArgv(lessonDir, env, probes)), lessonDir, env);
    case 'python-uv':
      return uvCommand(course, lesson, lessonDir, env, given, probes, installScripts);
    case 'custom':
      if (!given)
        refuse(
          `lesson ${lesson.id}: runtime custom needs a test_command (an argv list) in ${ARTIFACTS.lessonSpec(lesson.id)} or ${ARTIFACTS.config}`,
        );
      return plain(runtime, given, lessonDir, env);
  }
}

/** The spec's test_command, else the config's when the spec keeps the course runtime; checked for shell operators. */
function givenCommand(id: string, spec: LessonSpec | null, config: Config, runtime: Runtime): string[] | null {
  if (spec?.test_command) {
    refuseShellOperators(spec.test_command, `${ARTIFACTS.lessonSpec(id)}: test_command`);
    return spec.test_command;
  }
  if (config.test_command && runtime === config.runtime) {
    refuseShellOperators(config.test_command, `${ARTIFACTS.config}: test_command`);
    return config.test_command;
  }
  return null;
}

function plain(runtime: Runtime, argv: string[], cwd: string, env: ChildEnv): TestCommand {
  return { runtime, argv, cwd, env, prepare: null };
}

/**
 * Without `install_scripts: true` no package's build runs either (a source distribution's build runs
 * its code): uv (`uv run`, and any uv a test calls) and pip take built wheels only. uv still builds
 * the workspace's own projects, the lesson's code.
 */
export const NO_SOURCE_BUILDS = { UV_NO_BUILD: '1', PIP_ONLY_BINARY: ':all:' } as const;

/**
 * `npm test` when package.json has a test script (after `npm ci` if locked and not installed), else
 * `node --test`. npm ci runs no install scripts (the lesson's own or its dependencies') unless the
 * spec says `install_scripts: true`.
 */
function nodeCommand(lessonDir: string, env: ChildEnv, installScripts: boolean): TestCommand {
  const manifest = path.join(lessonDir, 'package.json');
  if (existsSync(manifest) && hasTestScript(manifest)) {
    const locked =
      existsSync(path.join(lessonDir, 'package-lock.json')) || existsSync(path.join(lessonDir, 'npm-shrinkwrap.json'));
    const prepare =
      locked && !existsSync(path.join(lessonDir, 'node_modules'))
        ? ['npm', 'ci', '--no-audit', '--no-fund', ...(installScripts ? [] : ['--ignore-scripts'])]
        : null;
    return { runtime: 'node', argv: ['npm', 'test'], cwd: lessonDir, env, prepare };
  }
  return plain('node', [process.execPath, '--test'], lessonDir, env);
}

function hasTestScript(manifest: string): boolean {
  try {
    const scripts = (JSON.parse(readTextFile(manifest, 'package.json')) as { scripts?: Record<string, unknown> })
      .scripts;
    return typeof scripts?.test === 'string' && scripts.test.trim() !== '';
  } catch {
    return false; // an unreadable package.json has no usable test script; node --test still runs
  }
}

/** pytest when the python3 the tests will run (resolved outside the lesson folder) imports it. */
async function pythonArgv(lessonDir: string, env: ChildEnv, probes: CommandProbes): Promise<string[]> {
  const python = resolveProgram('python3', env, probes.isExecutable, [lessonDir]);
  return python !== null && (await probes.hasPytest(python, lessonDir, env))
    ? ['python3', '-m', 'pytest', ...PYTEST_NO_CACHE]
    : ['python3', '-m', 'unittest', 'discover'];
}

/** `uv run pytest <lesson>` in the module's uv workspace, with VIRTUAL_ENV removed; `--no-build` unless install scripts are on. */
function uvCommand(
  course: Course,
  lesson: LessonState,
  lessonDir: string,
  env: ChildEnv,
  given: string[] | null,
  probes: Probes,
  installScripts: boolean,
): TestCommand {
  delete env.VIRTUAL_ENV; // uv would use (and warn about) the caller's venv instead of the workspace's
  if (resolveProgram('uv', env, probes.isExecutable, [lessonDir]) === null) {
    refuse(
      `lesson ${lesson.id}: runtime python-uv needs uv, which is not on PATH`,
      'install uv (https://docs.astral.sh/uv/), or set runtime: python in the lesson spec',
    );
  }
  const workspace = uvWorkspace(course, lessonDir);
  const target = path.relative(workspace, lessonDir);
  const noBuild = installScripts ? [] : ['--no-build'];
  const argv = given ?? ['uv', 'run', ...noBuild, 'pytest', ...PYTEST_NO_CACHE, ...(target === '' ? [] : [target])];
  return { runtime: 'python-uv', argv, cwd: workspace, env, prepare: null };
}

/**
 * The nearest folder from the lesson up to the course root with a uv.lock or a pyproject.toml
 * declaring `[tool.uv.workspace]`; else the nearest with a pyproject.toml; else the module folder.
 */
export function uvWorkspace(course: Course, lessonDir: string): string {
  let project: string | null = null;
  for (let dir = lessonDir; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'uv.lock')) || declaresWorkspace(path.join(dir, 'pyproject.toml'))) return dir;
    if (project === null && existsSync(path.join(dir, 'pyproject.toml'))) project = dir;
    if (dir === course.root || path.dirname(dir) === dir) break;
  }
  return project ?? path.dirname(lessonDir);
}

function declaresWorkspace(file: string): boolean {
  try {
    return /^\s*\[tool\.uv\.workspace\]/m.test(readTextFile(file, 'pyproject.toml'));
  } catch {
    return false; // no pyproject.toml here
  }
}
