// Drift: a verified lesson whose code (not its docs) no longer hashes to the verified hash. The
// verdict's scope is the hash, so drift means the lesson needs verifying again.
import { statSync } from 'node:fs';
import type { LessonState } from '../../content-schemas/index.ts';
import { hashLessonCode } from './code-hash.ts';
import { insideCourse, type Course } from '../course/course.ts';

export interface CodeDrift {
  /** True when the lesson was verified and its code now hashes differently (or is gone). */
  drifted: boolean;
  /** Hash recorded by the verification, or null when the lesson is not verified. */
  verified_hash: string | null;
  /** Hash of the code now, or null when not verified or the folder is missing or unsafe. */
  current_hash: string | null;
}

export function codeDrift(course: Course, lesson: LessonState): CodeDrift {
  if (lesson.verified === null) return { drifted: false, verified_hash: null, current_hash: null };
  const current = currentCodeHash(course, lesson);
  return {
    drifted: current !== lesson.verified.code_hash,
    verified_hash: lesson.verified.code_hash,
    current_hash: current,
  };
}

/** Hash of the lesson folder's code, or null when it is missing or resolves outside the course. */
export function currentCodeHash(course: Course, lesson: LessonState): string | null {
  try {
    const dir = insideCourse(course, lesson.dir, `lesson ${lesson.id} dir`);
    if (!statSync(dir).isDirectory()) return null;
    return hashLessonCode(dir);
  } catch {
    return null; // missing, unreadable or escaping the course: no current code to vouch for
  }
}
