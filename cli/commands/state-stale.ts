// codelabgen state stale <id> --reason: a done lesson whose upstream changed.
import { decideStale } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { runLessonChange } from './lesson-change.ts';
import type { ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const id = ctx.positionals[0] ?? '';
  return runLessonChange(
    ctx,
    (_course, state) => decideStale(state, id, ctx.string('reason')),
    () => `lesson ${id}: stale; move it back with: codelabgen state set ${id} <stage> --note "..."`,
  );
}
