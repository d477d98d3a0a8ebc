// codelabgen state rebuild: state.json from events.jsonl.
import { rebuildState } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const { state, events, tornBytes, tornCopy } = await rebuildState(courseOf(ctx), ctx.commandLine);
  if (tornCopy !== null)
    ctx.out.warn(
      `warning: cut a torn last line (${tornBytes} bytes) off .codelabgen/events.jsonl; moved to ${tornCopy}`,
    );
  if (ctx.flag('json')) ctx.out.json({ events, last_seq: state.last_seq, phase: state.phase, torn_bytes: tornBytes });
  else
    ctx.out.print(
      `rebuilt .codelabgen/state.json from ${events} events (last seq ${state.last_seq}, phase ${state.phase})`,
    );
  return EXIT.ok;
}
