// codelabgen verify <id> | verify --all | verify merge DIR...: run lessons' tests, print the
// verdict or a summary table, and (with --update-state) record the verdict in state.
import type { Context } from '../context.ts';
import type { RunResult, Stage } from '../../content-schemas/index.ts';
import {
  ChecksFailedError,
  defaultJobs,
  escapeControl,
  getOwn,
  loadConfig,
  loadState,
  mergeRunFolders,
  parseShard,
  parseStage,
  printable,
  recordVerdict,
  refuse,
  runLesson,
  requireAtCode,
  requireLesson,
  selectLessons,
  summarize,
  summaryEntry,
  verifyAll,
  writeRunResult,
  ARTIFACTS,
  type Progress,
  type SummaryEntry,
  type VerifySummary,
} from '../../pipeline/index.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { inGitHubActions, withoutCommands } from '../github-actions.ts';
import { leftOutBy, runAnnotation, summaryAnnotations, writeVerifySummary } from '../verify-github.ts';

const TAIL_LINES = 30;

export async function run(ctx: Context): Promise<ExitCode> {
  if (ctx.command === 'verify merge') return runMerge(ctx);
  const id = ctx.positionals[0];
  if (ctx.flag('all') === (id !== undefined))
    refuse('verify: give one lesson id or --all', 'codelabgen verify 1.2   or   codelabgen verify --all');
  if (id !== undefined)
    for (const name of ['jobs', 'stage-at-least', 'shard'])
      if (ctx.string(name) !== undefined) refuse(`verify: --${name} goes with --all, not with a lesson id`);
  const timeoutSeconds = positiveInt(ctx.string('timeout'), '--timeout', 86_400);
  return id === undefined ? runAll(ctx, timeoutSeconds) : runOne(ctx, id, timeoutSeconds);
}

function positiveInt(text: string | undefined, option: string, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > max)
    refuse(`${option} "${printable(text)}": expected a whole number from 1 to ${max}`);
  return Number(text);
}

async function runOne(ctx: Context, id: string, timeoutSeconds: number | undefined): Promise<ExitCode> {
  const course = courseOf(ctx);
  const config = loadConfig(course);
  const { state, notices } = await loadState(course, ctx.commandLine);
  reportNotices(ctx, notices);
  requireLesson(state, id);
  const updateState = ctx.flag('update-state');
  if (updateState) requireAtCode(state, id);
  ctx.progress?.({ done: 0, total: 1, message: `lesson ${id}: running its tests`, updatesPerUnit: 2 });
  const options = { config, timeoutSeconds, env: ctx.env, signal: ctx.signal, onWarning: sandboxWarning(ctx) };
  const unrecorded = await runLesson(course, state, id, options);
  ctx.progress?.({
    done: 1,
    total: 1,
    message: `lesson ${id}: ${unrecorded.passed ? 'passed' : 'failed'}`,
    updatesPerUnit: 2,
  });
  let verdict: string | null = null;
  let result: RunResult;
  if (!updateState) result = writeRunResult(course, unrecorded);
  else {
    // The run-result is written in the same all-or-nothing change as its verdict's event.
    const recorded = await recordVerdict(course, unrecorded, config.budgets, ctx.commandLine);
    const { committed } = recorded;
    result = recorded.result;
    reportNotices(ctx, committed.notices);
    const lesson = getOwn(committed.state.lessons, id)!;
    verdict = result.passed
      ? 'verified'
      : lesson.blocked
        ? `blocked: fix budget used up (${lesson.fix_attempts_used} of ${config.budgets.fix_attempts})`
        : `fix attempt ${lesson.fix_attempts_used} of ${config.budgets.fix_attempts} used`;
  }
  if (ctx.flag('json'))
    ctx.out.json({ ...result, file: `${ARTIFACTS.runsDir(id)}/${result.run}.json`, state: verdict });
  else printRun(ctx, result, verdict);
  if (inGitHubActions(ctx.env)) {
    if (!result.passed && !ctx.flag('json')) ctx.out.print(runAnnotation(ctx, course, state, result));
    const summary = summarize([summaryEntry(id, result)]);
    writeVerifySummary(ctx, `codelabgen verify ${id}`, summary, leftOutBy(summary, state, config.site.publish));
  }
  if (result.passed) return EXIT.ok;
  throw new ChecksFailedError(`lesson ${id} failed: ${result.cause ?? 'tests failed'}`, { quiet: ctx.flag('json') });
}

/** Prints why verify runs without the sandbox (auto without a usable bwrap), or that the course's verify.sandbox: off was not honoured, on stderr. */
function sandboxWarning(ctx: Context): (message: string, hints: readonly string[]) => void {
  return (message, hints) => {
    ctx.out.warn(`warning: ${message}`);
    for (const hint of hints) ctx.out.warn(`hint: ${hint}`);
  };
}

function printRun(ctx: Context, result: RunResult, verdict: string | null): void {
  if (!result.passed) {
    const lines = result.output_tail.trimEnd().split('\n');
    if (result.output_truncated || lines.length > TAIL_LINES)
      ctx.out.print(
        ctx.out.paint(
          'dim',
          `... (last ${Math.min(TAIL_LINES, lines.length)} lines of ${result.output_bytes} bytes of output)`,
        ),
      );
    // The test's own output: under GitHub Actions, a line of it must not be read as a workflow command.
    const tail = lines.slice(-TAIL_LINES).map(escapeControl);
    for (const line of inGitHubActions(ctx.env) ? withoutCommands(tail) : tail) ctx.out.print(line);
  }
  const mark = result.passed ? ctx.out.paint('green', 'passed') : ctx.out.paint('red', 'FAILED');
  ctx.out.print(
    `lesson ${result.lesson} ${mark}: ${describeTests(result.tests)} in ${seconds(result.duration_ms)} (` +
      `${result.argv.map((arg) => printable(arg, 60)).join(' ')} in ${result.cwd}` +
      `${result.sandbox ? `, sandbox: ${result.sandbox}` : ''})`,
  );
  ctx.out.print(
    `run ${result.run}: ${ARTIFACTS.runsDir(result.lesson)}/${result.run}.json${verdict ? `; state: ${verdict}` : ''}`,
  );
}

function describeTests(tests: RunResult['tests']): string {
  if (tests === null) return 'no test counts found in the output';
  return `${tests.total} tests (${tests.passed} passed, ${tests.failed} failed, ${tests.skipped} skipped)`;
}

function seconds(ms: number | null): string {
  return ms === null ? '-' : `${(ms / 1000).toFixed(1)}s`;
}

async function runAll(ctx: Context, timeoutSeconds: number | undefined): Promise<ExitCode> {
  const course = courseOf(ctx);
  const config = loadConfig(course);
  const { state, notices } = await loadState(course, ctx.commandLine);
  reportNotices(ctx, notices);
  const stageText = ctx.string('stage-at-least');
  // A hand-written course (site.publish verified or all) never walks the stages: --all is every lesson.
  const stageAtLeast: Stage | undefined =
    stageText !== undefined
      ? parseStage(stageText, '--stage-at-least')
      : config.site.publish !== 'done' && !ctx.flag('update-state')
        ? 'pending'
        : undefined;
  const shardText = ctx.string('shard');
  const shard = shardText === undefined ? undefined : parseShard(shardText);
  const jobs = positiveInt(ctx.string('jobs'), '--jobs', 64) ?? defaultJobs();
  const updateState = ctx.flag('update-state');
  const ids = selectLessons(state, { stageAtLeast, updateState, shard });
  const progress = progressDisplay(ctx);
  const summary = await verifyAll(course, state, ids, {
    config,
    timeoutSeconds,
    env: ctx.env,
    signal: ctx.signal,
    jobs,
    updateState,
    commandLine: ctx.commandLine,
    shard,
    onProgress: progress.update,
    onWarning: sandboxWarning(ctx),
  });
  progress.stop();
  if (ctx.signal?.aborted)
    refuse('verify --all was cancelled; the tests running then were stopped and the lessons not yet run were skipped');
  if (inGitHubActions(ctx.env)) {
    if (!ctx.flag('json')) for (const line of summaryAnnotations(ctx, course, state, summary)) ctx.out.print(line);
    const heading = `codelabgen verify --all${summary.shard ? ` (shard ${summary.shard})` : ''}`;
    writeVerifySummary(ctx, heading, summary, leftOutBy(summary, state, config.site.publish));
  }
  return finishSummary(ctx, summary, `verify --all`);
}

/** Where a progress line is drawn (ctx.out.live): one status line rewritten with the running lessons and their elapsed time; a log line per lesson always. */
function progressDisplay(ctx: Context): { update: (progress: Progress) => void; stop: () => void } {
  const started = new Map<string, number>();
  let done = 0;
  let total = 0;
  const render = () => {
    const now = Date.now();
    const running = [...started].map(([lesson, at]) => `${lesson} ${((now - at) / 1000).toFixed(1)}s`).join(', ');
    ctx.out.status(`[${done}/${total}] ${running === '' ? 'done' : `running ${running}`}`);
  };
  const timer = ctx.out.live ? setInterval(render, 250) : null;
  return {
    update: (progress) => {
      done = progress.done;
      total = progress.total;
      if (progress.kind === 'start') started.set(progress.lesson, Date.now());
      else {
        started.delete(progress.entry.lesson);
        ctx.out.warn(entryLine(ctx, progress.entry));
      }
      const message =
        progress.kind === 'start'
          ? `lesson ${progress.lesson}: running its tests`
          : `lesson ${progress.entry.lesson}: ${progress.entry.status}`;
      ctx.progress?.({ done: progress.done, total: progress.total, message, updatesPerUnit: 2 });
      if (timer) render();
    },
    stop: () => {
      if (timer) clearInterval(timer);
      ctx.out.status('');
    },
  };
}

function entryLine(ctx: Context, entry: SummaryEntry): string {
  const status =
    entry.status === 'passed'
      ? ctx.out.paint('green', 'passed')
      : ctx.out.paint('red', entry.status === 'failed' ? 'FAILED' : 'ERROR ');
  return `${entry.lesson.padEnd(8)} ${status} ${seconds(entry.duration_ms).padStart(7)}${entry.cause ? `  ${escapeControl(entry.cause)}` : ''}`;
}

async function runMerge(ctx: Context): Promise<ExitCode> {
  const summary = mergeRunFolders(ctx.positionals, ctx.cwd);
  if (inGitHubActions(ctx.env)) writeVerifySummary(ctx, 'codelabgen verify merge', summary, []);
  return finishSummary(ctx, summary, 'verify merge');
}

function finishSummary(ctx: Context, summary: VerifySummary, label: string): ExitCode {
  if (ctx.flag('json')) ctx.out.json(summary);
  else printSummary(ctx, summary);
  if (summary.ok) return EXIT.ok;
  throw new ChecksFailedError(
    `${label}: ${summary.failed} failed, ${summary.errors} could not run, of ${summary.total} lessons`,
    { quiet: ctx.flag('json') },
  );
}

function printSummary(ctx: Context, summary: VerifySummary): void {
  ctx.out.print(
    ctx.out.paint(
      'bold',
      `${'lesson'.padEnd(10)}${'status'.padEnd(8)}${'tests'.padEnd(16)}${'time'.padStart(8)}  run  cause`,
    ),
  );
  for (const entry of summary.lessons) {
    const tests = entry.tests ? `${entry.tests.passed}/${entry.tests.total} passed` : '-';
    const status = entry.status === 'passed' ? 'passed' : entry.status === 'failed' ? 'FAILED' : 'ERROR';
    ctx.out.print(
      (
        `${entry.lesson.padEnd(10)}${status.padEnd(8)}${tests.padEnd(16)}` +
        `${seconds(entry.duration_ms).padStart(8)}  ${String(entry.run ?? '-').padEnd(4)} ` +
        `${escapeControl(entry.cause ?? '')}`
      ).trimEnd(),
    );
  }
  const timing =
    summary.wall_ms === undefined
      ? ''
      : `; ${seconds(summary.wall_ms)} wall with ${summary.jobs} jobs, ${seconds(summary.serial_ms)} of test time`;
  const shard = summary.shard ? ` (shard ${summary.shard})` : '';
  ctx.out.print(
    `${summary.total} lessons${shard}: ${summary.passed} passed, ${summary.failed} failed, ${summary.errors} could not run${timing}`,
  );
}
