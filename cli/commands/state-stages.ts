// codelabgen state stages: the stage table as JSON (docs/protocol.md, "Lesson stages").
import { STAGE_TABLE } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  ctx.out.json({ stages: STAGE_TABLE });
  return EXIT.ok;
}
