// `init`: creates `.codelabgen/` with config.yaml and the first event (course.init), and any files
// the course starts with, as one change: all of it, or (a refusal, a full disk) nothing left behind.
import { existsSync, lstatSync, mkdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_RUNTIME, RUNTIMES } from '../../content-schemas/fast.ts';
import type { State } from '../../content-schemas/index.ts';
import { ARTIFACTS, courseAt, type Course } from '../course/course.ts';
import { RefusalError } from '../course/errors.ts';
import { toEvent, writeEventAndState, type ChangeDraft } from './commit.ts';
import { withLock } from './lock.ts';
import { StagedChange, type CourseWrite } from './staged-change.ts';
import { apply } from '../state/apply.ts';
import { eventsPath, statePath } from './state-file.ts';

export const DEFAULT_CONFIG_YAML = `# codelabgen course configuration; see \`codelabgen schema show config\`.
schema_version: 1
${`runtime: ${DEFAULT_RUNTIME}`.padEnd(25)}# ${RUNTIMES.join(' | ')}
verify_timeout_seconds: 300
task_lease: 20m          # a task without a heartbeat for this long is listed as interrupted
budgets:
  fix_attempts: 3        # failed verifications before a lesson is blocked
  review_rounds: 2       # moves back from notes or reviewed
  parallel: 3            # modules worked on at once
`;

export interface CreateOptions {
  title: string;
  topic: string | null;
  command: string;
  now?: () => Date;
  /** Files the course starts with (course-relative); config.yaml gets the default when neither it nor this list has one. */
  writes?: CourseWrite[];
  /** A second event and its files, committed with course.init (init --example's lesson); may refuse. */
  then?: (state: State) => ChangeDraft;
}

export async function createCourse(root: string, options: CreateOptions): Promise<{ course: Course; state: State }> {
  const course = courseAt(root);
  if (existsSync(course.root) && !statSync(course.root).isDirectory())
    throw new RefusalError(`${root} exists and is not a directory`);
  const made = missingFolders([course.root, course.dir]);
  const logExisted = existsSync(eventsPath(course));
  mkdirSync(course.dir, { recursive: true });
  try {
    return await withLock(course, { command: options.command }, () => {
      if (existsSync(statePath(course)) || (existsSync(eventsPath(course)) && statSync(eventsPath(course)).size > 0)) {
        throw new RefusalError(
          `${path.join(course.root, ARTIFACTS.state)} already exists; a course is never re-initialized`,
          ['read it with "codelabgen state show" and resume'],
        );
      }
      const writes = [...(options.writes ?? [])];
      if (
        !existsSync(path.join(course.root, ARTIFACTS.config)) &&
        !writes.some((write) => write.path === ARTIFACTS.config)
      )
        writes.unshift({ path: ARTIFACTS.config, data: DEFAULT_CONFIG_YAML });
      const init = toEvent({ kind: 'course.init', title: options.title, topic: options.topic }, 1, options);
      const events = [init];
      let state = apply(null, init);
      if (options.then) {
        const next = options.then(state);
        const event = toEvent(next.draft, 2, options);
        events.push(event);
        state = apply(state, event);
        writes.push(...next.writes);
      }
      const change = StagedChange.stage(course, writes, 'init');
      return { course, state: writeEventAndState(course, events, state, 0, change) };
    });
  } catch (error) {
    if (!logExisted) removeEmptyLog(course);
    for (const folder of made.reverse()) removeIfEmpty(folder);
    throw error;
  }
}

/** Of `folders` (outermost first), the ones that do not exist yet: init removes them again if it refuses. */
function missingFolders(folders: string[]): string[] {
  return folders.filter((folder) => !existsSync(folder));
}

function removeEmptyLog(course: Course): void {
  try {
    if (lstatSync(eventsPath(course)).size === 0) unlinkSync(eventsPath(course));
  } catch {
    // no log was created
  }
}

function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // not empty (another process put something there) or already gone: left as it is
  }
}
