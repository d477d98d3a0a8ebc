// `check`'s conventions section: warnings (never failures) for docs of a kind that needs a code
// reference (the readalong) without one, and for fences in lesson docs that look like a failed one.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DOC_KINDS, docFiles, readTextFile, type State } from '../../content-schemas/index.ts';
import type { CheckSection } from './section.ts';
import { lintDoc } from '../authoring/conventions.ts';
import { insideCourse, type Course } from '../course/course.ts';

// Code references are the readalong topic's rules, whichever doc holds them.
const HINT = 'see: codelabgen conventions readalong';

export function checkConventions(course: Course, state: State | null): CheckSection {
  const warnings: string[] = [];
  for (const id of state?.lesson_order ?? []) {
    const lesson = state?.lessons[id];
    if (!lesson) continue;
    for (const kind of DOC_KINDS) {
      const [doc] = docFiles(kind);
      let text: string;
      try {
        const file = insideCourse(course, path.posix.join(lesson.dir, doc), `lesson ${id} ${doc}`);
        if (!existsSync(file)) continue;
        text = readTextFile(file, `${lesson.dir}/${doc}`); // a pipe or device is refused, never opened for reading
      } catch {
        continue; // unreadable or outside the course: the code-reference check reports it
      }
      const lint = lintDoc(text);
      if (kind.needsCodeReference && lint.references === 0)
        warnings.push(
          `lesson ${id} ${doc}: no code reference (an empty fence like \`\`\`ts file=src/x.ts lines=10-24); ${HINT}`,
        );
      for (const line of lint.suspicious) warnings.push(`lesson ${id} ${doc}: ${line}; ${HINT}`);
    }
  }
  return { name: 'doc conventions (code references)', problems: [], warnings };
}
