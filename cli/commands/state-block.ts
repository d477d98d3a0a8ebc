// codelabgen state block (being built)
import { refuse } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';

export async function run(ctx: Context): Promise<number> {
  return refuse(`${ctx.command}: not implemented yet`);
}
