// Writes `.codelabgen/report.json` and `report.md` from the event log (up to the state's last
// applied event): `codelabgen report`, and `state phase done`, which leaves the report current.
import type { Report } from '../../content-schemas/index.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { buildReport, renderReport } from './report.ts';
import { writeCourseFiles } from '../store/commit.ts';
import { scanLog } from '../store/log.ts';
import { eventsPath } from '../store/state-file.ts';
import { runNumbers } from '../verify/runs.ts';

/** Both files as one change (pipeline/store/staged-change.ts), under the lock: both new, or both as they were. */
export async function writeReportFiles(course: Course, lastSeq: number, command: string): Promise<Report> {
  const events = scanLog(eventsPath(course)).events.filter((event) => event.seq <= lastSeq);
  const recordedRuns = new Map(
    events
      .flatMap((event) => (event.kind === 'lessons.register' ? event.lessons : []))
      .map((lesson) => [lesson.id, runNumbers(abs(course, ARTIFACTS.runsDir(lesson.id))).at(-1) ?? 0] as const),
  );
  const report = buildReport(events, recordedRuns);
  await writeCourseFiles(
    course,
    [
      { path: ARTIFACTS.reportJson, data: `${JSON.stringify(report, null, 2)}\n` },
      { path: ARTIFACTS.reportMd, data: renderReport(report) },
    ],
    { command, what: 'report' },
  );
  return report;
}
