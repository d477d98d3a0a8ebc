// What `verify` adds under GitHub Actions (cli/github-actions.ts): an `::error` annotation on the
// failing test of each failed lesson, and a job summary of the lessons with the ones a publish build
// leaves out because of it (site.publish: verified).
import { STAGES, type RunResult, type Stage, type State } from '../content-schemas/index.ts';
import {
  failureLocation,
  getOwn,
  lastRun,
  lessonFolder,
  type Course,
  type SummaryEntry,
  type VerifySummary,
} from '../pipeline/index.ts';
import type { Context } from './context.ts';
import { appendStepSummary, errorAnnotation, markdownCell, markdownTable } from './github-actions.ts';

/** The annotation of one failed run: on the failing test's file and line when the output names one. */
export function runAnnotation(ctx: Context, course: Course, state: State, result: RunResult): string {
  let location: ReturnType<typeof failureLocation> = null;
  try {
    location = failureLocation(result.output_tail, lessonFolder(course, state, result.lesson));
  } catch {
    location = null; // the folder is gone: the annotation names no file
  }
  return errorAnnotation(
    {
      file: location?.file,
      line: location?.line,
      title: `lesson ${result.lesson} failed`,
      message: result.cause ?? 'tests failed',
    },
    ctx.env,
    ctx.cwd,
  );
}

/** One annotation per lesson of the summary that failed or could not run. */
export function summaryAnnotations(ctx: Context, course: Course, state: State, summary: VerifySummary): string[] {
  return summary.lessons
    .filter((entry) => entry.status !== 'passed')
    .map((entry) => {
      const run = entry.status === 'failed' ? lastRun(course, entry.lesson) : null;
      if (run !== null && run.run === entry.run) return runAnnotation(ctx, course, state, run);
      return errorAnnotation(
        { title: `lesson ${entry.lesson} could not run`, message: entry.cause ?? 'the tests could not be run' },
        ctx.env,
        ctx.cwd,
      );
    });
}

/** Lessons a publish build leaves out after this verification: failed ones below stage verified, under site.publish: verified. */
export function leftOutBy(summary: VerifySummary, state: State | null, publish: string): string[] {
  if (publish !== 'verified' || state === null) return [];
  const verified = STAGES.indexOf('verified');
  return summary.lessons
    .filter((entry) => entry.status !== 'passed')
    .filter((entry) => {
      const stage: Stage | undefined = getOwn(state.lessons, entry.lesson)?.stage;
      return stage === undefined || STAGES.indexOf(stage) < verified;
    })
    .map((entry) => entry.lesson);
}

export function writeVerifySummary(ctx: Context, heading: string, summary: VerifySummary, leftOut: string[]): void {
  const status = (entry: SummaryEntry) =>
    entry.status === 'passed' ? '✅ passed' : entry.status === 'failed' ? '❌ failed' : '⚠️ could not run';
  const rows = summary.lessons.map((entry) => [
    entry.lesson,
    status(entry),
    entry.tests ? `${entry.tests.passed}/${entry.tests.total}` : '-',
    markdownCell(entry.cause ?? ''),
  ]);
  const parts = [
    `### ${heading}`,
    `${summary.total} lessons: ${summary.passed} passed, ${summary.failed} failed, ${summary.errors} could not run`,
    markdownTable(['Lesson', 'Result', 'Tests passed', 'Cause'], rows),
  ];
  if (leftOut.length > 0)
    parts.push(
      `Left out of the site (site.publish: verified publishes only lessons whose tests pass): ${leftOut.join(', ')}`,
    );
  appendStepSummary(ctx.env, parts.join('\n\n'));
}
