// codelabgen state stages: the stage table as JSON (PROTOCOL.md section 3).
import { STAGE_TABLE } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';

export async function run(ctx: Context): Promise<number> {
  ctx.out.json({ stages: STAGE_TABLE });
  return 0;
}
