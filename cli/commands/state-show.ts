// codelabgen state show [--json] [--all]: the human summary, or the whole state as JSON.
import { buildSummary, escapeControl, storedTextOf } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { readRecoveredState, readSnapshot } from './plan-input.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  if (ctx.flag('json')) {
    // The state as it is: no config, plan or drift to compute (they would cost a large course dearly).
    // state.json's own text when it was read unchanged (a 1,000-lesson state is 500 KB to serialize).
    const { state } = await readRecoveredState(ctx);
    const text = storedTextOf(state);
    if (text !== undefined) ctx.out.jsonText(text);
    else ctx.out.json(state);
    return EXIT.ok;
  }
  const { state, budgets, actions, drifted } = await readSnapshot(ctx);
  const [title = '', ...rest] = buildSummary({
    state,
    budgets,
    actions,
    drifted,
    all: ctx.flag('all'),
    now: new Date(),
  });
  // Titles, reasons and problems are course data: a control character in them is shown, never acted on.
  ctx.out.print(ctx.out.paint('bold', escapeControl(title)));
  for (const line of rest) ctx.out.print(escapeControl(line));
  return EXIT.ok;
}
