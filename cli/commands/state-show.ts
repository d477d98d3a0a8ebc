// codelabgen state show [--json] [--all]: the human summary, or the whole state as JSON.
import { buildSummary } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { readRecoveredState, readSnapshot } from './plan-input.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  if (ctx.flag('json')) {
    // The state as it is: no config, plan or drift to compute (they would cost a large course dearly).
    ctx.out.json((await readRecoveredState(ctx)).state);
    return EXIT.ok;
  }
  const { state, budgets, actions, drifted } = await readSnapshot(ctx);
  const [title = '', ...rest] = buildSummary({ state, budgets, actions, drifted, all: ctx.flag('all') });
  ctx.out.print(ctx.out.paint('bold', title));
  for (const line of rest) ctx.out.print(line);
  return EXIT.ok;
}
