// codelabgen state fail <id> --note: a failed verification uses one fix attempt; the last blocks.
import { decideFail, failFacts } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { runLessonChange } from './lesson-change.ts';
import type { ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const id = ctx.positionals[0] ?? '';
  return runLessonChange(
    ctx,
    (course, state, budgets) => decideFail(state, id, ctx.string('note'), failFacts(course, state, id), budgets),
    (lesson, event) =>
      event.kind === 'lesson.fail_note'
        ? `lesson ${id}: this failure is already counted by verify run ${event.run ?? '?'}; note added (fix attempts ${lesson.fix_attempts_used} used)`
        : lesson.blocked
          ? `lesson ${id}: fix attempt ${lesson.fix_attempts_used} failed; BLOCKED: ${lesson.blocked.reason}`
          : `lesson ${id}: fix attempt ${lesson.fix_attempts_used} failed`,
  );
}
