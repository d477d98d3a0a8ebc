// Runs the Node test files (`node --test` over the same folders) with the slowest files started
// first, so that six at a time finish together instead of one long file running alone at the end
// (`node --test` itself always runs files in alphabetical order). Prints the spec report, then the
// slowest files: keep SLOW_FIRST in step with that list.
// It cannot hang (docs/testing.md): every test file fails after CODELABGEN_TEST_TIMEOUT_MS (default 15
// minutes; a test's own `timeout` is usually shorter), a file's process exits once its tests end even
// with handles left open, processes the tests leave behind are named and killed at the end, and past
// CODELABGEN_TESTS_DEADLINE_S (default 25 minutes) the run stops, naming the tests still running.
// It cannot lose a test either: every test a file announces must report a result, and a file must
// report at least one test, else the run fails naming them (docs/testing.md, "A test never lost").
// Usage: node scripts/node-tests.ts [--concurrency N] [FILE...] (only those files, in that order);
// CODELABGEN_TEST_CONCURRENCY=N sets the default (6). CODELABGEN_TEST_TIMELINE=FILE writes the run's
// timeline to FILE (JSON: each file's start, end and CPU, the machine's busy cores every second) and
// prints its summary (scripts/test-timeline.ts, docs/testing.md "Where the cores go").
// CODELABGEN_TEST_FAILURES=FILE appends each failed test to FILE, a JSON line each (file, line, name,
// error): scripts/stall-hunt.ts reads them.
import { appendFileSync, globSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { boundCodeCache } from './code-cache-bound.ts';
import { type GroupMember, groupMembers, killAll, ownGroup } from './process-group.ts';
import { cpuPreload, type FileSpan, readSpool, sampleCores, summarize, writeTimeline } from './test-timeline.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PATTERNS = [
  'content-schemas/**/*.test.ts',
  'pipeline/**/*.test.ts',
  'cli/**/*.test.ts',
  'site/**/*.test.ts',
  'examples/*.test.ts',
  'bench/**/*.test.ts',
  'scripts/**/*.test.ts',
];
/**
 * Files started first, so that no long one starts late and runs alone at the end: the longest chains
 * of CPU work (site builds, installs, a serial run of CLI processes) first, then the files that wait
 * longest (sandboxed lesson runs, fsyncs), heaviest first. From the CPU and wall time of each file
 * measured alone (docs/testing.md, "Keeping it fast"); update it when a file grows.
 */
const SLOW_FIRST = [
  'cli/package.test.ts',
  'pipeline/site/site-build.test.ts',
  'cli/mcp.test.ts',
  'pipeline/store/crash.test.ts',
  'pipeline/site/astro-mount.test.ts',
  'site/site-config.test.ts',
  'cli/authoring.test.ts',
  'cli/orchestrator.test.ts',
  'cli/brief.test.ts',
  'cli/protocol.test.ts',
  'cli/stage-checks.test.ts',
  'pipeline/store/big-log.test.ts',
  'pipeline/site/mdx-site.test.ts',
  'pipeline/site/site-errors.test.ts',
  'cli/fuzz.test.ts',
  'cli/refusals.test.ts',
  'pipeline/verify/sandbox.test.ts',
  'cli/verify.test.ts',
  'pipeline/store/disk-faults.test.ts',
  'pipeline/store/corruption.test.ts',
  'pipeline/site/untrusted-files.test.ts',
  'pipeline/verify/lesson-writes.test.ts',
  'pipeline/store/state-checksum.test.ts',
  'pipeline/store/event-tail.test.ts',
  'pipeline/verify/lesson-install.test.ts',
  // Files that mostly wait on the clock (a watcher's rescans, test and lesson timeouts, a deadline):
  // they ran last, alphabetically, and the run ended with 11 s of a core and more idle while they
  // waited (the timeline, docs/testing.md "Where the cores go"); started here, their waits overlap work.
  'pipeline/site/course-watch.test.ts',
  'scripts/node-tests.test.ts',
  'scripts/stall-hunt.test.ts',
  'pipeline/verify/lesson-deadline.test.ts',
  'pipeline/verify/process-limit.test.ts',
  // 21 s of waiting (lesson runs to their timeouts): started last, alphabetically, it ran alone for the
  // last 14 s of the 2026-12-03 fresh-clone runs.
  'pipeline/verify/run-tests.test.ts',
  'cli/state-watch.test.ts',
];

const { values, positionals } = parseArgs({
  // Six files at once on 2 cores: many files wait much of their time (sandboxed lesson runs, fsyncs,
  // servers starting, browsers), and with four the cores idled while four such files waited.
  // CODELABGEN_TEST_CONCURRENCY sets it for npm test (to compare settings without editing this file).
  options: { concurrency: { type: 'string', default: process.env.CODELABGEN_TEST_CONCURRENCY || '6' } },
  allowPositionals: true,
});
const all = [...new Set(PATTERNS.flatMap((pattern) => globSync(pattern, { cwd: REPO })))].sort();
const slowFirst = SLOW_FIRST.filter((file) => all.includes(file));
for (const file of SLOW_FIRST)
  if (!slowFirst.includes(file))
    process.stderr.write(
      `warning: scripts/node-tests.ts: SLOW_FIRST names ${file}, which no pattern finds; update the list\n`,
    );
const files = positionals.length > 0 ? positionals : [...slowFirst, ...all.filter((file) => !slowFirst.includes(file))];

const TEST_TIMEOUT_MS = Number(process.env.CODELABGEN_TEST_TIMEOUT_MS ?? 900_000);
const DEADLINE_S = Number(process.env.CODELABGEN_TESTS_DEADLINE_S ?? 1500);
// Read, then taken out of the environment before any test file starts: a runner a test starts
// (scripts/node-tests.test.ts) writes its failures to no file of ours.
const failures = process.env.CODELABGEN_TEST_FAILURES;
delete process.env.CODELABGEN_TEST_FAILURES;

// Processes already in this process group (the shell, npm, a pipe's other end): never swept.
// Swept only when this process leads its group (npm test's steps run so, scripts/test-all.ts): in
// someone else's group the newcomers may be the processes of other test files, not ours.
const group = ownGroup();
const leader = group === process.pid;
const before = new Set(groupMembers(group).map((member) => member.pid));
const leftBehind = (): GroupMember[] => (leader ? groupMembers(group).filter((member) => !before.has(member.pid)) : []);

const durations = new Map<string, number>(); // file → ms
const running = new Map<string, string>(); // "file\0nesting\0name" → "file › name", from dequeue (it starts) to complete
let failed = false;
/**
 * Loaded before each test file: its stdout and stderr (pipes to this process; its test reports go
 * through stdout) write synchronously. `forceExit` ends a file's process once its tests end, and
 * Node's writes to a full pipe (this process busy or starved of CPU, not reading) wait in a queue in
 * the file's process, which that exit dropped: the results of its last tests were lost and the file
 * still counted as passed (docs/testing.md). A blocking write waits for this process to read instead.
 * fork() passes it on (with --test-force-exit) to the site worker a test in-process may fork, whose
 * stderr its parent reads: no write there waits for ever.
 */
const BLOCKING_STDIO =
  'data:text/javascript,' +
  encodeURIComponent('for (const stream of [process.stdout, process.stderr]) stream._handle?.setBlocking?.(true);');
// Each test file's TypeScript stripped once per content for the whole run, and Node's compile cache, in
// a folder of the repository's .cache/ that runs share (scripts/test-code-cache.mjs; entries are named
// by their content, so an edit only adds one). $CODELABGEN_TEST_CODE_CACHE= (empty) turns it off.
process.env.CODELABGEN_TEST_CODE_CACHE ??= path.join(REPO, '.cache', 'test-code-cache');
// Bounded: past its size it is emptied before the run (scripts/code-cache-bound.ts).
if (process.env.CODELABGEN_TEST_CODE_CACHE) boundCodeCache(process.env.CODELABGEN_TEST_CODE_CACHE);
const CODE_CACHE = pathToFileURL(path.join(REPO, 'scripts', 'test-code-cache.mjs')).href;
const timelineFile = process.env.CODELABGEN_TEST_TIMELINE
  ? path.resolve(process.env.CODELABGEN_TEST_TIMELINE)
  : undefined;
const origin = Date.now();
const sampler = timelineFile === undefined ? undefined : sampleCores(origin);
const spoolDir = timelineFile === undefined ? undefined : mkdtempSync(path.join(tmpdir(), 'codelabgen-timeline-'));
const spool = spoolDir === undefined ? undefined : path.join(spoolDir, 'files.jsonl');
const stream = run({
  files: files.map((file) => path.resolve(REPO, file)),
  concurrency: Number(values.concurrency),
  timeout: TEST_TIMEOUT_MS,
  forceExit: true,
  execArgv: [
    '--import',
    BLOCKING_STDIO,
    '--import',
    CODE_CACHE,
    ...(spool === undefined ? [] : ['--import', `data:text/javascript,${encodeURIComponent(cpuPreload(spool))}`]),
  ],
});
// The runner's own view of each file (its first event, its end), for a file whose process wrote no
// span (stopped at the timeout): seconds since the start.
const seen = new Map<string, { start: number; end?: number }>();
const since = () => (Date.now() - origin) / 1000;
for (const event of ['test:enqueue', 'test:dequeue', 'test:complete'] as const)
  stream.on(event, (data: { file?: string; name: string }) => {
    if (data.file === undefined) return;
    const entry = seen.get(data.file) ?? { start: since() };
    seen.set(data.file, entry);
    if (event === 'test:complete' && data.name === data.file) entry.end = since();
  });
const testKey = (data: { file?: string; nesting: number; name: string }) =>
  `${data.file ?? ''}\0${data.nesting}\0${data.name}`;
stream.on('test:dequeue', (data) => {
  const file = data.file === undefined ? '' : path.relative(REPO, data.file);
  if (data.name !== data.file) running.set(testKey(data), `${file} › ${data.name}`);
});

// Every test a file announces (test:enqueue, for a describe and for each test in it) must end in
// test:pass or test:fail: a result lost on the way (its file's process ended first) fails the run,
// named, instead of a count one short. Counted, since a loop can make tests of the same name and place.
const unreported = new Map<string, { name: string; count: number }>();
type Reported = { file?: string; line?: number; column?: number; nesting: number; name: string };
const reportKey = (data: Reported) =>
  `${data.file ?? ''}\0${data.line ?? 0}\0${data.column ?? 0}\0${data.nesting}\0${data.name}`;
stream.on('test:enqueue', (data) => {
  if (data.name === data.file) return; // the file itself, reported as a test only when it has none
  const key = reportKey(data);
  const file = data.file === undefined ? '?' : path.relative(REPO, data.file);
  const entry = unreported.get(key) ?? { name: `${file}:${data.line ?? '?'} › ${data.name}`, count: 0 };
  entry.count++;
  unreported.set(key, entry);
});
const resultReported = (data: Reported) => {
  const entry = unreported.get(reportKey(data));
  if (entry !== undefined && --entry.count === 0) unreported.delete(reportKey(data));
};
// A file's own entry passes only when its process reported no test at all (node:test reports the
// file as a test then): every test in it was lost, or it has none.
const empty: string[] = [];
stream.on('test:pass', (data) => {
  if (data.file !== undefined && data.name === data.file) empty.push(path.relative(REPO, data.file));
  else resultReported(data);
});
stream.on('test:fail', (data) => {
  failed = true;
  resultReported(data);
  if (failures && data.details.type !== 'suite') {
    const file = data.file === undefined ? '?' : path.relative(REPO, data.file);
    const error = String(data.details.error?.cause ?? data.details.error)
      .split('\n')[0]!
      .slice(0, 300);
    const name = data.name === data.file ? file : data.name;
    appendFileSync(failures, `${JSON.stringify({ file, line: data.line, name, error })}\n`);
  }
  // A whole file past the timeout: its process is killed; name the tests it was still running.
  if (data.file !== undefined && data.name === data.file) {
    const file = path.relative(REPO, data.file);
    const hung = [...running].filter(([key]) => key.startsWith(`${data.file}\0`));
    for (const [key, name] of hung) {
      process.stdout.write(
        `node-tests: ${file} stopped (${String(data.details.error?.cause ?? data.details.error)}); hung: ${name}\n`,
      );
      running.delete(key);
    }
  }
});
stream.on('test:complete', (data) => {
  running.delete(testKey(data));
  // A file's own entry: its name is its path.
  if (data.file !== undefined && data.name === data.file)
    durations.set(path.relative(REPO, data.file), data.details.duration_ms);
});

const deadline = setTimeout(() => {
  let text = `\nnode-tests: still running after the ${DEADLINE_S} s deadline, stopped:\n`;
  for (const name of running.values()) text += `  hung: ${name}\n`;
  const leftover = leftBehind();
  for (const member of leftover) text += `  killed: ${member.pid} ${member.command}\n`;
  killAll(leftover);
  // Exits once all of it has been written: an exit drops what still waits to be written to a full pipe.
  process.stdout.write(text, () => process.exit(1));
}, DEADLINE_S * 1000);
deadline.unref();
const report = stream.compose(new spec());
report.pipe(process.stdout, { end: false }); // stdout stays open for the list below
await finished(report);
clearTimeout(deadline);

// What the tests started and did not stop (a server, a sandboxed lesson, a dev server): named, then killed.
const leftover = leftBehind();
if (leftover.length > 0) {
  process.stdout.write(`\nnode-tests: ${leftover.length} process(es) the tests left running, killed:\n`);
  for (const member of leftover) process.stdout.write(`  ${member.pid} ${member.command}\n`);
  killAll(leftover);
}

/** The files that reported no test and the tests that reported no result, as lines; none when nothing was lost. */
function lostResults(): string[] {
  const lines = empty.map(
    (file) => `\nnode-tests: ${file} reported no test (it has none, or its process ended before its first report)`,
  );
  if (unreported.size > 0) {
    const count = [...unreported.values()].reduce((sum, entry) => sum + entry.count, 0);
    lines.push(
      `\nnode-tests: ${count} test(s) never reported a result (their report was lost, or their file's process ended first):`,
    );
    for (const entry of unreported.values())
      lines.push(`  no result: ${entry.name}${entry.count > 1 ? ` (${entry.count} times)` : ''}`);
  }
  return lines;
}
const lost = lostResults();
if (lost.length > 0) {
  failed = true;
  process.stdout.write(`${lost.join('\n')}\n`);
}

if (timelineFile !== undefined && sampler !== undefined && spool !== undefined) {
  const samples = sampler.stop();
  const spans: FileSpan[] = readSpool(spool, new Map(files.map((file) => [path.resolve(REPO, file), file])), origin);
  for (const [absolute, entry] of seen) {
    const file = path.relative(REPO, absolute);
    if (!spans.some((span) => span.file === file))
      spans.push({ file, start: Math.round(entry.start * 10) / 10, end: Math.round((entry.end ?? since()) * 10) / 10 });
  }
  spans.sort((a, b) => a.start - b.start);
  rmSync(spoolDir!, { recursive: true, force: true });
  const timeline = { cores: sampler.cores, concurrency: Number(values.concurrency), files: spans, samples };
  writeTimeline(timelineFile, timeline);
  process.stdout.write(`\nnode-tests: timeline written to ${timelineFile}\n${summarize(timeline).join('\n')}\n`);
}

const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, 15);
process.stdout.write(`\nslowest test files (wall time while ${values.concurrency} ran at once):\n`);
for (const [file, ms] of slowest) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
process.exitCode = failed ? 1 : 0;
