// What a runtime resolves to (the command that runs a lesson's tests) and what resolving it may ask of
// the machine: shared by runtime.ts and the runtimes' own modules (runtimes/).
import { accessSync, constants, statSync } from 'node:fs';
import type { Config, LessonSpec, LessonState, Runtime } from '../../content-schemas/index.ts';
import type { Course } from '../course/course.ts';
import type { ChildEnv } from './child-env.ts';

export interface TestCommand {
  runtime: Runtime;
  argv: string[];
  /** Absolute working folder. */
  cwd: string;
  env: ChildEnv;
  /** A step to run first (`npm ci`), or null. */
  prepare: string[] | null;
}

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

/** What a runtime's module resolves its command from. */
export interface CommandRequest {
  course: Course;
  lesson: LessonState;
  /** Absolute lesson folder. */
  lessonDir: string;
  spec: LessonSpec | null;
  config: Config;
  /** The spec's or config's test_command (checked for shell operators), or null. */
  given: string[] | null;
  /** The child's environment; a runtime may remove variables from it. */
  env: ChildEnv;
  probes: CommandProbes;
  /** The spec's `install_scripts`: install scripts and source builds run only when true. */
  installScripts: boolean;
}

/** A runtime's module: the command that runs a lesson's tests (pipeline/verify/runtimes/). */
export type ResolveCommand = (request: CommandRequest) => TestCommand | Promise<TestCommand>;

/** A command run as given, in the lesson folder, with nothing before it. */
export function plainCommand(runtime: Runtime, argv: string[], cwd: string, env: ChildEnv): TestCommand {
  return { runtime, argv, cwd, env, prepare: null };
}

/** pytest would write `.pytest_cache/` into the lesson folder. */
export const PYTEST_NO_CACHE = ['-p', 'no:cacheprovider'];
