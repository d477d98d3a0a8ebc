// The python-uv runtime: `uv run pytest <lesson>` in the module's uv workspace, VIRTUAL_ENV removed;
// `--no-build` unless install scripts are on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readTextFile } from '../../../content-schemas/fast.ts';
import type { Course } from '../../course/course.ts';
import { refuse } from '../../course/errors.ts';
import { resolveProgram } from '../child-env.ts';
import { PYTEST_NO_CACHE, type ResolveCommand } from '../test-command.ts';

export const uvCommand: ResolveCommand = ({ course, lesson, lessonDir, env, given, probes, installScripts }) => {
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
};

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
