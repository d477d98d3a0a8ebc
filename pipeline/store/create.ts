// `init`: creates `.codelabgen/` with a default config.yaml and the first event (course.init).
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { State } from '../../content-schemas/index.ts';
import { ARTIFACTS, courseAt, type Course } from '../course/course.ts';
import { RefusalError } from '../course/errors.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { toEvent, writeEventAndState } from './commit.ts';
import { withLock } from './lock.ts';
import { apply } from '../state/apply.ts';
import { eventsPath, statePath } from './state-file.ts';

export const DEFAULT_CONFIG_YAML = `# codelabgen course configuration; see \`codelabgen schema show config\`.
schema_version: 1
runtime: node            # node | python | python-uv | custom
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
}

export async function createCourse(root: string, options: CreateOptions): Promise<{ course: Course; state: State }> {
  const course = courseAt(root);
  if (existsSync(course.root) && !statSync(course.root).isDirectory())
    throw new RefusalError(`${root} exists and is not a directory`);
  mkdirSync(course.dir, { recursive: true });
  return withLock(course, { command: options.command }, () => {
    if (existsSync(statePath(course)) || (existsSync(eventsPath(course)) && statSync(eventsPath(course)).size > 0)) {
      throw new RefusalError(
        `${path.join(course.root, ARTIFACTS.state)} already exists; a course is never re-initialized`,
        ['read it with "codelabgen state show" and resume'],
      );
    }
    const configFile = path.join(course.root, ARTIFACTS.config);
    if (!existsSync(configFile)) writeFileAtomic(configFile, DEFAULT_CONFIG_YAML);
    const event = toEvent({ kind: 'course.init', title: options.title, topic: options.topic }, 1, options);
    const state = writeEventAndState(course, event, apply(null, event), 0);
    return { course, state };
  });
}
