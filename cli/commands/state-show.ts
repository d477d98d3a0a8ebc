// codelabgen state show [--json] [--all]
import { loadState } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';

export async function run(ctx: Context): Promise<number> {
  const { state, notices } = await loadState(courseOf(ctx), ctx.commandLine);
  reportNotices(ctx, notices);
  if (ctx.flag('json')) {
    ctx.out.json(state);
    return 0;
  }
  ctx.out.print(`${ctx.out.paint('bold', state.title)}  phase ${state.phase}  (seq ${state.last_seq})`);
  ctx.out.print(`lessons: ${state.lesson_order.length}`);
  return 0;
}
