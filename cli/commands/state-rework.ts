// codelabgen state rework <id> <stage-to-redo> --note: back to the stage before the one to redo.
import { decideRework, reworkLanding, stageMoveFacts } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { runLessonChange } from './lesson-change.ts';
import type { ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const [id = '', redo = ''] = ctx.positionals;
  const request = { id, stage: redo, note: ctx.string('note') ?? null, reopen: ctx.flag('reopen') };
  return runLessonChange(
    ctx,
    (course, state, budgets) =>
      decideRework(
        state,
        request,
        stageMoveFacts(course, state, { ...request, stage: reworkLanding(request.stage) }),
        budgets,
      ),
    (lesson) =>
      `lesson ${id}: back at ${lesson.stage}, ${redo} is the work now` +
      `${lesson.review_rounds_used > 0 ? ` (review rounds ${lesson.review_rounds_used} used)` : ''}` +
      `${ctx.flag('reopen') ? '; course reopened: phase lessons' : ''}`,
  );
}
