// codelabgen state log <kind> [--lesson ID] --data key=value ...
import { commit, decideLog, parseLogRequest } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const request = parseLogRequest(ctx.positionals[0] ?? '', ctx.list('data'), ctx.string('lesson') ?? null);
  const course = courseOf(ctx);
  const { event, notices } = await commit(course, { command: ctx.commandLine }, (state) => decideLog(state, request));
  reportNotices(ctx, notices);
  if (ctx.flag('json')) ctx.out.json({ seq: event.seq, kind: event.kind, fact: request.kind });
  else ctx.out.print(`logged ${request.kind} (seq ${event.seq})`);
  return EXIT.ok;
}
