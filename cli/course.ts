// Course resolution for commands: --course, $CODELABGEN_COURSE, nearest ancestor (docs/protocol.md, "Course layout").
import { escapeControl, resolveCourse, type Course } from '../pipeline/state-commands.ts';
import type { Context } from './context.ts';

// One resolution per command: a state change asks twice (the command, then notifyAfter), and each
// resolution stats and realpaths the folder; the same Course also keeps abs()'s root checks
// (pipeline/course/course.ts). A refusal is not kept: the next call resolves (and refuses) again.
const resolved = new WeakMap<Context, Course>();

export function courseOf(ctx: Context): Course {
  let course = resolved.get(ctx);
  if (course === undefined) {
    course = resolveCourse({ flag: ctx.string('course'), env: ctx.env.CODELABGEN_COURSE, cwd: ctx.cwd });
    resolved.set(ctx, course);
  }
  return course;
}

/** Prints what recovery did (a torn line moved aside, events replayed) on stderr. */
export function reportNotices(ctx: Context, notices: readonly string[]): void {
  for (const notice of notices) ctx.out.warn(`warning: ${escapeControl(notice)}`);
}
