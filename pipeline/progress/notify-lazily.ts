// The state commands' way to notifications (pipeline/progress/notify.ts): the notifier and the board
// model it builds load only for a course whose config.yaml asks for notifications (a look at its
// text), so every other course's state commands start without them (docs/performance.md).
import { loadLazily, readTextFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import type * as Notify from './notify.ts';

/** A top-level `notify:` key in config.yaml's text (a quoted "notify": too). */
const NOTIFY_KEY = /^["']?notify["']?\s*:/m;

function wanted(course: Course): boolean {
  try {
    const text = readTextFile(abs(course, ARTIFACTS.config), ARTIFACTS.config);
    return text.includes('notify') && NOTIFY_KEY.test(text); // most configs: no expression compiled
  } catch {
    return false; // no config.yaml to read: the command that runs next says why
  }
}

/** notifyHumans() of pipeline/progress/notify.ts, loaded only when config.yaml has `notify:`. */
export async function notifyHumans(course: Course): Promise<string[]> {
  if (!wanted(course)) return [];
  return loadLazily<typeof Notify>('notify', '../pipeline/progress/notify.ts').notifyHumans(course);
}
