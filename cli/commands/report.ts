// codelabgen report [--json]: write .codelabgen/report.md and report.json from the event log alone.
import { ARTIFACTS, loadState, writeReportFiles } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  // loadState replays events the state has not applied yet; the report reads only the log.
  const { state, notices } = await loadState(course, ctx.commandLine);
  reportNotices(ctx, notices);
  const report = await writeReportFiles(course, state.last_seq, ctx.commandLine);
  if (ctx.flag('json')) ctx.out.json(report);
  else
    ctx.out.print(
      `wrote ${ARTIFACTS.reportMd} and ${ARTIFACTS.reportJson}: ${report.totals.lessons} lessons, ${report.totals.done} done, ${report.phases.length} phases`,
    );
  return EXIT.ok;
}
