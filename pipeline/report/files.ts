// Writes `.codelabgen/report.json` and `report.md` from the event log (up to the state's last
// applied event): `codelabgen report`, and `state phase done`, which leaves the report current.
import type { Report } from '../../content-schemas/index.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { buildReport, renderReport } from './report.ts';
import { writeFileAtomic } from '../store/atomic-write.ts';
import { scanLog } from '../store/log.ts';
import { eventsPath } from '../store/state-file.ts';
import { runNumbers } from '../verify/runs.ts';

export function writeReportFiles(course: Course, lastSeq: number): Report {
  const events = scanLog(eventsPath(course)).events.filter((event) => event.seq <= lastSeq);
  const recordedRuns = new Map(
    events
      .flatMap((event) => (event.kind === 'lessons.register' ? event.lessons : []))
      .map((lesson) => [lesson.id, runNumbers(abs(course, ARTIFACTS.runsDir(lesson.id))).at(-1) ?? 0] as const),
  );
  const report = buildReport(events, recordedRuns);
  writeFileAtomic(abs(course, ARTIFACTS.reportJson), `${JSON.stringify(report, null, 2)}\n`);
  writeFileAtomic(abs(course, ARTIFACTS.reportMd), renderReport(report));
  return report;
}
