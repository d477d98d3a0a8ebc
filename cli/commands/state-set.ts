// codelabgen state set <id> <stage> [--note]: one stage forward, or back with a note.
import { decideSet, stageMoveFacts } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { runLessonChange } from './lesson-change.ts';
import type { ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const [id = '', stage = ''] = ctx.positionals;
  const request = { id, stage, note: ctx.string('note') ?? null, reopen: ctx.flag('reopen') };
  return runLessonChange(
    ctx,
    (course, state, budgets) => decideSet(state, request, stageMoveFacts(course, state, request), budgets),
    (lesson) =>
      `lesson ${id}: ${lesson.stage}` +
      `${lesson.review_rounds_used > 0 ? ` (review rounds ${lesson.review_rounds_used} used)` : ''}` +
      `${ctx.flag('reopen') ? '; course reopened: phase lessons' : ''}`,
  );
}
