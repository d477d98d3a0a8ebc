// Artifact checks as problem lines: one line each, naming the file and field, for `state next`,
// the decisions' facts and `check`.
import { existsSync, statSync } from 'node:fs';
import { DataFileError } from '../../content-schemas/fast.ts';
import { abs, type Course } from '../course/course.ts';
import { RefusalError } from '../course/errors.ts';

/** Problems of a file that must exist and not be empty. */
export function nonEmptyFileProblems(course: Course, rel: string): string[] {
  const file = abs(course, rel);
  if (!existsSync(file)) return [`${rel}: missing`];
  const stat = statSync(file);
  if (!stat.isFile()) return [`${rel}: not a file`];
  return stat.size === 0 ? [`${rel}: empty`] : [];
}

/** Runs a parse and turns a DataFileError (or a refusal) into problem lines. */
export function problemsOf(run: () => void): string[] {
  try {
    run();
    return [];
  } catch (error) {
    if (error instanceof DataFileError) return error.message.split('\n');
    if (error instanceof RefusalError) return [error.message];
    throw error;
  }
}
