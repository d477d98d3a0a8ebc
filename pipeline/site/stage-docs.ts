// What a lesson's move to readalong or notes checks of that stage's docs: the checks `codelabgen
// check` runs on them (check-refs.ts: front matter, code references, links, images) and that their
// diagrams parse (diagram-parse.ts), one implementation for both, so the worker who wrote a broken
// reference or diagram hears of it (docs/protocol.md, "What each state set checks"). Loaded lazily
// by pipeline/artifacts/lesson-artifacts.ts: not on the state commands' start-up path.
import type { LessonState, State } from '../../content-schemas/index.ts';
import { lessonFolderPath, type Course } from '../course/course.ts';
import { checkLessonDoc, courseDocLinks, type LESSON_DOCS } from './check-refs.ts';
import { lessonDiagramFiles } from './diagram-files.ts';
import { parseDiagrams, type DiagramSource } from './diagram-parse.ts';

const STAGE_DOCS: Record<'readalong' | 'notes', Array<(typeof LESSON_DOCS)[number]>> = {
  readalong: ['docs/readalong.md', 'docs/readalong.mdx'],
  notes: ['docs/notes.md', 'docs/notes.mdx'],
};

/** Problems of the docs a move to `target` records; `docs/diagrams/*.mmd` count as the notes'. */
export function stageDocProblems(
  course: Course,
  state: State,
  lesson: LessonState,
  target: 'readalong' | 'notes',
): string[] {
  const lessonDir = lessonFolderPath(course, lesson.dir, `lesson ${lesson.id} dir`);
  const links = courseDocLinks(course, state);
  const problems: string[] = [];
  const diagrams: DiagramSource[] = [];
  for (const doc of STAGE_DOCS[target]) {
    const checked = checkLessonDoc(course, lesson, lessonDir, doc, links);
    problems.push(...checked.problems);
    diagrams.push(...checked.diagrams);
  }
  if (target === 'notes')
    diagrams.push(
      ...lessonDiagramFiles(lesson, lessonDir).map((file) => ({
        lesson: lesson.id,
        where: file.label,
        source: file.source,
      })),
    );
  return [...problems, ...parseDiagrams(diagrams).problems];
}
