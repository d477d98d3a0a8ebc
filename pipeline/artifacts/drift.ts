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
  return hashDrift(course, lesson, lesson.verified.code_hash);
}

/**
 * Drift from the code a verify run ran on (its `code_hash`): a run vouches for that code only. For a
 * lesson with no verdict in the state (a hand author's `verify`, a CI shard's runs), this is what
 * says whether its last pass still holds.
 */
export function runDrift(course: Course, lesson: { id: string; dir: string }, run: { code_hash: string }): CodeDrift {
  return hashDrift(course, lesson, run.code_hash);
}

function hashDrift(course: Course, lesson: { id: string; dir: string }, hash: string): CodeDrift {
  const current = currentCodeHash(course, lesson);
  return { drifted: current !== hash, verified_hash: hash, current_hash: current };
}

/** Hash of the lesson folder's code, or null when it is missing or resolves outside the course. */
export function currentCodeHash(course: Course, lesson: { id: string; dir: string }): string | null {
  try {
    const dir = insideCourse(course, lesson.dir, `lesson ${lesson.id} dir`);
    if (!statSync(dir).isDirectory()) return null;
    return hashLessonCode(dir);
  } catch {
    return null; // missing, unreadable or escaping the course: no current code to vouch for
  }
}
