// codelabgen report [--json]: write .codelabgen/report.md and report.json from the event log.
import type { RunResult } from '../../content-schemas/index.ts';
import { ARTIFACTS, abs, buildReport, eventsPath, loadState, readRuns, renderReport, scanLog, writeFileAtomic } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';

export async function run(ctx: Context): Promise<number> {
  const course = courseOf(ctx);
  const { state, notices } = await loadState(course, ctx.commandLine);
  reportNotices(ctx, notices);
  const events = scanLog(eventsPath(course)).events.filter((event) => event.seq <= state.last_seq);
  const runs = new Map<string, RunResult[]>(state.lesson_order.map((id) => [id, readRuns(course, id)]));
  const report = buildReport({ state, events, runs, now: new Date() });
  writeFileAtomic(abs(course, ARTIFACTS.reportJson), `${JSON.stringify(report, null, 2)}\n`);
  writeFileAtomic(abs(course, ARTIFACTS.reportMd), renderReport(report));
  if (ctx.flag('json')) ctx.out.json(report);
  else ctx.out.print(`wrote ${ARTIFACTS.reportMd} and ${ARTIFACTS.reportJson}: ${report.totals.lessons} lessons, ${report.totals.done} done, ${report.phases.length} phases`);
  return 0;
}
