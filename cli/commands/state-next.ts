// codelabgen state next: what to do next, as JSON (shape in docs/protocol.md, "state next").
import { nextPhase, planNext } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { readSnapshot } from './plan-input.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const { state, budgets, actions, drifted, changedFiles, prerequisites } = await readSnapshot(ctx);
  ctx.out.json(
    planNext({
      state,
      budgets,
      actions,
      drifted,
      changedFiles,
      prerequisites,
      next_phase: nextPhase(state.phase),
      now: new Date(),
    }),
  );
  return EXIT.ok;
}
