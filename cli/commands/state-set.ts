// codelabgen state set <id> <stage> [--note]: one stage forward, or back with a note.
import { decideSet } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { runLessonChange } from './lesson-change.ts';

export async function run(ctx: Context): Promise<number> {
  const [id = '', stage = ''] = ctx.positionals;
  return runLessonChange(ctx, (course, state, budgets) => decideSet(course, state, id, stage, ctx.string('note') ?? null, budgets, ctx.flag('reopen')), (lesson) =>
    `lesson ${id}: ${lesson.stage}${lesson.review_rounds_used > 0 ? ` (review rounds ${lesson.review_rounds_used} used)` : ''}${ctx.flag('reopen') ? '; course reopened: phase lessons' : ''}`);
}
