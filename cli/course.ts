// Course resolution for commands: --course, $CODELABGEN_COURSE, nearest ancestor (docs/protocol.md, "Course layout").
import { escapeControl, resolveCourse, type Course } from '../pipeline/state-commands.ts';
import type { Context } from './context.ts';

export function courseOf(ctx: Context): Course {
  return resolveCourse({ flag: ctx.string('course'), env: ctx.env.CODELABGEN_COURSE, cwd: ctx.cwd });
}

/** Prints what recovery did (a torn line moved aside, events replayed) on stderr. */
export function reportNotices(ctx: Context, notices: readonly string[]): void {
  for (const notice of notices) ctx.out.warn(`warning: ${escapeControl(notice)}`);
}
