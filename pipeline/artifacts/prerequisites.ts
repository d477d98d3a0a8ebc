// Each lesson's prerequisites as curriculum.yaml lists them, for protocol/prerequisites.ts.
import { existsSync } from 'node:fs';
import { CurriculumParser, parseDataFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';

/** Lesson id → its prerequisites, from curriculum.yaml; empty when the file is missing or invalid (check reports that elsewhere). */
export function readPrerequisites(course: Course): Map<string, string[]> {
  const file = abs(course, ARTIFACTS.curriculum);
  if (!existsSync(file)) return new Map();
  try {
    const curriculum = parseDataFile(CurriculumParser, file, ARTIFACTS.curriculum);
    return new Map(
      curriculum.modules.flatMap((module) =>
        module.lessons.map((lesson) => [lesson.id, lesson.prerequisites] as const),
      ),
    );
  } catch {
    return new Map(); // an invalid curriculum is the phase checks' and register's problem, not this flag's
  }
}
