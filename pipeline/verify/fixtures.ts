// Test helper (imported only by *.test.ts): a temp course whose lessons are registered and moved
// to a stage by committing events through the store, with their code written to disk.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RegisteredLesson, Stage } from '../../content-schemas/index.ts';
// The modules themselves, not the entry files (content-schemas/index.ts loads every zod schema):
// less to load for each test file that imports this helper.
import { STAGES } from '../../content-schemas/names.ts';
import { hashLessonCode } from '../artifacts/code-hash.ts';
import { ARTIFACTS, abs, lessonDirName, type Course } from '../course/course.ts';
import { commit } from '../store/commit.ts';
import { createCourse } from '../store/create.ts';

export interface LessonFixture {
  id: string;
  /** Path in the lesson folder → content. */
  files: Record<string, string>;
  /** Default `code`. */
  stage?: Stage;
  /** YAML text of `.codelabgen/lessons/<id>/spec.yaml`. */
  spec?: string;
}

export function registeredLesson(id: string): RegisteredLesson {
  const slug = `lesson-${id.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return {
    id,
    title: `Lesson ${id}`,
    slug,
    module_id: '1',
    module_slug: 'basics',
    module_title: 'Basics',
    dir: lessonDirName('1', 'basics', id, slug),
  };
}

const made: string[] = [];

/**
 * `dir`, removed when the test file ends (as cli/testing.ts's tempDir, which this helper does not import:
 * that builds dist/, which these tests do not need).
 */
function removedWhenFileEnds(dir: string): string {
  if (made.length === 0)
    process.once('exit', () => {
      for (const folder of made)
        try {
          rmSync(folder, { recursive: true, force: true });
        } catch {
          // a folder a test left read-only must not turn a passing file into a failure
        }
    });
  made.push(dir);
  return dir;
}

/**
 * A new course in a temp folder (under `base`, removed when the test file ends) holding `lessons`;
 * `configYaml` replaces the default config.
 */
export async function courseWithLessons(
  lessons: LessonFixture[],
  configYaml?: string,
  base = tmpdir(),
): Promise<Course> {
  const root = path.join(removedWhenFileEnds(mkdtempSync(path.join(base, 'codelabgen-verify-'))), 'course');
  const { course } = await createCourse(root, { title: 'Verify test', topic: null, command: 'test' });
  if (configYaml !== undefined) writeFileSync(abs(course, ARTIFACTS.config), configYaml);
  const registered = lessons.map((lesson) => registeredLesson(lesson.id));
  await commit(course, { command: 'test' }, () => ({ kind: 'lessons.register', lessons: registered, removed: [] }));
  for (const [index, lesson] of lessons.entries()) {
    writeLessonFiles(course, registered[index]!.dir, lesson.files);
    if (lesson.spec !== undefined) {
      mkdirSync(path.dirname(abs(course, ARTIFACTS.lessonSpec(lesson.id))), { recursive: true });
      writeFileSync(abs(course, ARTIFACTS.lessonSpec(lesson.id)), lesson.spec);
    }
    await moveTo(course, lesson.id, registered[index]!.dir, lesson.stage ?? 'code');
  }
  return course;
}

export function writeLessonFiles(course: Course, dir: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(course.root, dir, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content, { mode: file.endsWith('.sh') || !file.includes('.') ? 0o755 : 0o644 });
  }
  mkdirSync(path.join(course.root, dir), { recursive: true });
}

/** Moves a pending lesson forward one stage at a time; `verified` records the code's current hash. */
async function moveTo(course: Course, id: string, dir: string, target: Stage): Promise<void> {
  for (let index = 1; index <= STAGES.indexOf(target); index += 1) {
    const from = STAGES[index - 1]!;
    const to = STAGES[index]!;
    await commit(course, { command: 'test' }, () =>
      to === 'verified'
        ? { kind: 'lesson.verified', lesson: id, code_hash: hashLessonCode(path.join(course.root, dir)), run: null }
        : { kind: 'lesson.stage', lesson: id, from, to, note: null, review_round_used: false },
    );
  }
}

/** True when the process is gone (or a zombie, which runs nothing and waits only to be reaped). */
export function processGone(pid: number): boolean {
  if (existsSync('/proc/self/stat')) {
    const stat = `/proc/${pid}/stat`;
    if (!existsSync(stat)) return true;
    return /^ Z /.test(readFileSync(stat, 'utf8').replace(/^.*\)/s, ''));
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true; // ESRCH: no such process
  }
}

/** Pids of the live processes whose command line contains `token` (also those inside a sandbox's PID namespace). */
export function processesWith(token: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    if (cmdline.includes(token) && !processGone(Number(name))) pids.push(Number(name));
  }
  return pids;
}

/** Waits (up to ~5 s, for the kernel to finish the kills) until no process carries `token`; returns the survivors. */
export async function survivorsOf(token: string): Promise<number[]> {
  for (let i = 0; i < 250; i += 1) {
    if (processesWith(token).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return processesWith(token);
}
