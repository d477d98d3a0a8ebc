// Which command runs a lesson's tests: the runtime (lesson spec overrides course config), its
// default argv (its module in runtimes/, content-schemas/runtimes.ts lists them) or a test_command,
// the working folder, and the child's environment.
import { existsSync } from 'node:fs';
import type { Config, LessonSpec, LessonState, Runtime } from '../../content-schemas/index.ts';
import { LessonSpecParser, parseDataFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { childEnv } from './child-env.ts';
import { RUNTIME_COMMANDS } from './runtimes/index.ts';
import { refuseShellOperators } from './shell-operators.ts';
import type { CommandProbes, TestCommand } from './test-command.ts';

export { uvWorkspace } from './runtimes/python-uv.ts';
export { MACHINE_PROBES, type CommandProbes, type Probes, type TestCommand } from './test-command.ts';

/** Dropping sys.path[0] (the lesson folder) keeps a lesson's own pytest.py from answering for pytest. */
export const PYTEST_PROBE = ['-c', 'import sys; del sys.path[0]; import pytest'];

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
  return RUNTIME_COMMANDS[runtime]({ course, lesson, lessonDir, spec, config, given, env, probes, installScripts });
}

/**
 * Without `install_scripts: true` no package's build runs either (a source distribution's build runs
 * its code): uv (`uv run`, and any uv a test calls) and pip take built wheels only. uv still builds
 * the workspace's own projects, the lesson's code.
 */
export const NO_SOURCE_BUILDS = { UV_NO_BUILD: '1', PIP_ONLY_BINARY: ':all:' } as const;

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
