// Runs the Node test files (`node --test` over the same folders) with the slowest files started
// first, so that six at a time finish together instead of one long file running alone at the end
// (`node --test` itself always runs files in alphabetical order). Prints the spec report, then the
// slowest files: keep SLOW_FIRST in step with that list.
// It cannot hang (docs/testing.md): every test file fails after CODELABGEN_TEST_TIMEOUT_MS (default 15
// minutes; a test's own `timeout` is usually shorter), a file's process exits once its tests end even
// with handles left open, processes the tests leave behind are named and killed at the end, and past
// CODELABGEN_TESTS_DEADLINE_S (default 25 minutes) the run stops, naming the tests still running.
// Usage: node scripts/node-tests.ts [--concurrency N] [FILE...] (only those files, in that order);
// CODELABGEN_TEST_CONCURRENCY=N sets the default (6).
import { globSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type GroupMember, groupMembers, killAll, ownGroup } from './process-group.ts';

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
  'pipeline/site/site-rebuild.test.ts',
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
const stream = run({
  files: files.map((file) => path.resolve(REPO, file)),
  concurrency: Number(values.concurrency),
  timeout: TEST_TIMEOUT_MS,
  forceExit: true,
});
const testKey = (data: { file?: string; nesting: number; name: string }) =>
  `${data.file ?? ''}\0${data.nesting}\0${data.name}`;
stream.on('test:dequeue', (data) => {
  const file = data.file === undefined ? '' : path.relative(REPO, data.file);
  if (data.name !== data.file) running.set(testKey(data), `${file} › ${data.name}`);
});
stream.on('test:fail', (data) => {
  failed = true;
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
  process.stdout.write(`\nnode-tests: still running after the ${DEADLINE_S} s deadline, stopped:\n`);
  for (const name of running.values()) process.stdout.write(`  hung: ${name}\n`);
  const leftover = leftBehind();
  for (const member of leftover) process.stdout.write(`  killed: ${member.pid} ${member.command}\n`);
  killAll(leftover);
  process.exit(1);
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

const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, 15);
process.stdout.write(`\nslowest test files (wall time while ${values.concurrency} ran at once):\n`);
for (const [file, ms] of slowest) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
process.exitCode = failed ? 1 : 0;
