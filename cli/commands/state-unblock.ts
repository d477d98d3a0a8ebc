// codelabgen state unblock <id> [--note] [--review-round]: a fix-budget block also gets a fresh fix
// budget; --note records the user's decision, --review-round grants one more review round.
import { decideUnblock } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { runLessonChange } from './lesson-change.ts';
import type { ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const id = ctx.positionals[0] ?? '';
  return runLessonChange(
    ctx,
    (_course, state) => decideUnblock(state, id, ctx.string('note') ?? null, ctx.flag('review-round')),
    (lesson) =>
      `lesson ${id}: unblocked at ${lesson.stage}` +
      `${lesson.fix_attempts_used === 0 && lesson.fix_budget_resets > 0 ? ' with a fresh fix budget' : ''}` +
      `${ctx.flag('review-round') ? `; one more review round granted (${lesson.review_rounds_granted ?? 0} in all)` : ''}`,
  );
}
