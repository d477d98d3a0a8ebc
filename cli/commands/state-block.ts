// codelabgen state block <id> --reason: blocked for a decision only the user can make.
import { decideBlock } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { runLessonChange } from './lesson-change.ts';
import type { ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const id = ctx.positionals[0] ?? '';
  return runLessonChange(
    ctx,
    (_course, state) => decideBlock(state, id, ctx.string('reason')),
    (lesson) => `lesson ${id}: blocked at ${lesson.stage}`,
  );
}
