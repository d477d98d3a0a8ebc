// What a lesson's move to a stage that owns docs (readalong, notes: content-schemas/doc-kinds.ts) checks of them: the checks `codelabgen
// check` runs on them (check-refs.ts: front matter, code references, links, images) and that their
// diagrams parse (diagram-parse.ts), one implementation for both, so the worker who wrote a broken
// reference or diagram hears of it (docs/protocol.md, "What each state set checks"). Loaded lazily
// by pipeline/artifacts/lesson-artifacts.ts: not on the state commands' start-up path.
import { docFiles, docKindsOfStage, type LessonState, type State } from '../../content-schemas/index.ts';
import { lessonFolderPath, type Course } from '../course/course.ts';
import { checkLessonDoc, courseDocLinks } from './check-refs.ts';
import { lessonDiagramFiles } from './diagram-files.ts';
import { parseDiagrams, type DiagramSource } from './diagram-parse.ts';

/**
 * Problems of the docs a move to `target` records (the kinds whose stage it is); `docs/diagrams/*.mmd`
 * count as the docs' of the kind that owns them (the notes).
 */
export function stageDocProblems(course: Course, state: State, lesson: LessonState, target: string): string[] {
  const kinds = docKindsOfStage(target);
  const lessonDir = lessonFolderPath(course, lesson.dir, `lesson ${lesson.id} dir`);
  const links = courseDocLinks(course, state);
  const problems: string[] = [];
  const diagrams: DiagramSource[] = [];
  for (const doc of kinds.flatMap(docFiles)) {
    const checked = checkLessonDoc(course, lesson, lessonDir, doc, links);
    problems.push(...checked.problems);
    diagrams.push(...checked.diagrams);
  }
  if (kinds.some((kind) => kind.ownsDiagramFiles))
    diagrams.push(
      ...lessonDiagramFiles(lesson, lessonDir).map((file) => ({
        lesson: lesson.id,
        where: file.label,
        source: file.source,
      })),
    );
  return [...problems, ...parseDiagrams(diagrams).problems];
}
