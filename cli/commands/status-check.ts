// codelabgen status check FILE|-: validate a worker's status JSON (the last JSON block of a text).
import type { Context } from '../context.ts';
import { readWorkerStatus } from './state-task.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const status = readWorkerStatus(ctx, ctx.positionals[0] ?? '-');
  if (ctx.flag('json')) ctx.out.json(status);
  else {
    const what =
      'phase' in status
        ? `phase ${status.phase}`
        : `lesson ${status.lesson}, status ${status.status}, stage ${status.stage}`;
    ctx.out.print(
      `ok: ${'phase' in status ? `${what}, status ${status.status}` : what}, ${status.artifacts.length} artifact${status.artifacts.length === 1 ? '' : 's'}`,
    );
  }
  return EXIT.ok;
}
