// A lesson's `docs/diagrams/*.mmd`, read as the site reads them: confined to the lesson folder, a
// symlinked file skipped (never followed), a pipe, device or socket refused by readTextFile. The
// site's pages (pipeline/read/lesson-files.ts) and the checks (pipeline/site/stage-docs.ts) share it.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readTextFile } from '../../content-schemas/fast.ts';
import { OutsideError, realPathInside } from '../course/confined.ts';
import { refuse } from '../course/errors.ts';
import { diagramHash, diagramTitle, type DiagramRef } from './diagram-ref.ts';

/** The diagrams of the lesson at `lessonDir` (on disk; `lesson.dir` course-relative), sorted by file name. */
export function lessonDiagramFiles(lesson: { id: string; dir: string }, lessonDir: string): DiagramRef[] {
  let dir: string | null;
  try {
    dir = realPathInside(lessonDir, 'docs/diagrams');
  } catch (error) {
    if (!(error instanceof OutsideError)) throw error;
    return refuse(
      `${lesson.dir}/docs/diagrams resolves outside the lesson folder (to ${error.real}); the site never publishes files from outside the course`,
      'replace the symbolic link with the folder itself',
    );
  }
  if (dir === null) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.mmd') && !lstatSync(path.join(dir, name)).isSymbolicLink())
    .sort()
    .map((name) => {
      const source = readTextFile(path.join(dir, name), `${lesson.dir}/docs/diagrams/${name}`);
      return {
        hash: diagramHash(source),
        source,
        label: `docs/diagrams/${name}`,
        title: diagramTitle(source, name.replace(/\.mmd$/, '')),
        lesson: lesson.id,
      };
    });
}
