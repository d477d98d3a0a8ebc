// Shared runner of the lesson commands (state set|fail|block|unblock|stale): commit the decided
// event and print what changed (one line, or --json {seq, kind, lesson, stage, ...}).
import type { Event, EventDraft, LessonState, State } from '../../content-schemas/index.ts';
import { commit, escapeControl, loadConfig, type Course } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export type LessonDecision = (
  course: Course,
  state: State,
  budgets: ReturnType<typeof loadConfig>['budgets'],
) => EventDraft;

/**
 * How the user's decision behind this command came: `elicitation` when the MCP server asked the user
 * (it sets approved-via, no CLI option: cli/mcp/tool-calls.ts), else `command` (the command itself).
 */
export function approvalOf(ctx: Context): 'command' | 'elicitation' {
  return ctx.string('approved-via') === 'elicitation' ? 'elicitation' : 'command';
}

/** A user's decision (lifting a user block, reopening) records how it came. */
function withApproval(draft: EventDraft, approval: 'command' | 'elicitation'): EventDraft {
  if (draft.kind === 'lesson.unblock' || (draft.kind === 'lesson.stage' && draft.reopened !== undefined))
    return { ...draft, approval };
  return draft;
}

export async function runLessonChange(
  ctx: Context,
  decide: LessonDecision,
  describe: (lesson: LessonState, event: Event) => string,
): Promise<ExitCode> {
  const course = courseOf(ctx);
  const budgets = loadConfig(course).budgets;
  const id = ctx.positionals[0] ?? '';
  const { event, state, notices } = await commit(course, { command: ctx.commandLine }, (current) =>
    withApproval(decide(course, current, budgets), approvalOf(ctx)),
  );
  reportNotices(ctx, notices);
  const lesson = state.lessons[id] as LessonState;
  if (ctx.flag('json')) {
    ctx.out.json({
      seq: event.seq,
      kind: event.kind,
      lesson: id,
      stage: lesson.stage,
      blocked: lesson.blocked,
      stale: lesson.stale,
      fix_attempts_used: lesson.fix_attempts_used,
      review_rounds_used: lesson.review_rounds_used,
      budgets,
    });
  } else ctx.out.print(`${escapeControl(describe(lesson, event))} (seq ${event.seq})`);
  return EXIT.ok;
}
