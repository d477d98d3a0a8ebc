// Hunts for tests a loaded machine breaks (docs/testing.md, "No premise a loaded machine breaks"): runs
// `node scripts/node-tests.ts FILES` once per seed with scripts/stall-preload.cjs in NODE_OPTIONS, which
// stalls the processes the tests start (and the test files' own) for seconds at pseudo-random moments
// drawn from the seed, and prints per seed the tests that failed (file, line, name, seed) with the
// command that re-runs exactly that case (the same seed on that file alone: the stalls of a file's
// processes do not depend on the other files of the run).
// Usage: node scripts/stall-hunt.ts [--seeds N | --seed S ...] [--max-ms M] [--concurrency C] [FILE...]
// Seeds 1 to N (default 3), stalls of M/2 to M ms (default 8000: stalls of 2-4 s missed both premises
// docs/testing.md says the hunt found or was checked on, 4-8 s found them), C files at once (default 2:
// the machine's two cores, shared), FILES default to RACY below. Exits 1 when a test failed.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PRELOAD = path.join(REPO, 'scripts', 'stall-preload.cjs');
/**
 * The test files whose tests race processes: servers they start (MCP over stdio and HTTP, site dev),
 * watchers, locks and leases, receivers and lesson timeouts, a deadline, the runner's own timeouts.
 * Found by grepping the *.test.ts files for spawn, setTimeout, timeouts, leases and grace periods, less
 * the files whose timers only bound a hang (or whose times are data: a lease dated in an event).
 */
const RACY = [
  'cli/mcp.test.ts',
  'cli/mcp/http.test.ts',
  'cli/mcp-http.test.ts',
  'cli/mcp-untrusted-files.test.ts',
  'cli/notify.test.ts',
  'cli/state-watch.test.ts',
  'cli/terminal-escapes.test.ts',
  'cli/site-dev-quiet.test.ts',
  'cli/orchestrator.test.ts',
  'pipeline/site/course-watch.test.ts',
  'pipeline/site/mdx-site.test.ts',
  'pipeline/store/lock.test.ts',
  'pipeline/store/lock-guard.test.ts',
  'pipeline/store/lock-wake.test.ts',
  'pipeline/store/signals.test.ts',
  'pipeline/store/planted-lock.test.ts',
  'pipeline/verify/run-tests.test.ts',
  'pipeline/verify/lesson-deadline.test.ts',
  'pipeline/verify/process-limit.test.ts',
  'pipeline/verify/sandbox.test.ts',
  'scripts/node-tests.test.ts',
];

const { values, positionals } = parseArgs({
  options: {
    seeds: { type: 'string', default: '3' },
    seed: { type: 'string', multiple: true },
    'max-ms': { type: 'string', default: '8000' },
    concurrency: { type: 'string', default: '2' },
  },
  allowPositionals: true,
});
const seeds = values.seed ?? Array.from({ length: Number(values.seeds) }, (_, i) => String(i + 1));
const maxMs = Number(values['max-ms']);
const files = positionals.length > 0 ? positionals : RACY;

interface Failure {
  file: string;
  line?: number;
  name: string;
  error: string;
}

/** One run of the Node tests under the stalls of one seed, in a process group of its own (node-tests.ts sweeps it). */
function hunt(seed: string, dir: string): Promise<{ status: number | null; log: string }> {
  const log = path.join(dir, 'run.log');
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const out = openSync(log, 'w');
  const child = spawn(process.execPath, ['scripts/node-tests.ts', '--concurrency', values.concurrency, ...files], {
    cwd: REPO,
    detached: true,
    stdio: ['ignore', out, out],
    env: {
      ...env,
      CODELABGEN_STALL: `${seed}:${maxMs}:${path.join(dir, 'stalls')}`,
      CODELABGEN_TEST_FAILURES: path.join(dir, 'failures.jsonl'),
      NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${PRELOAD}`.trim(),
    },
  });
  closeSync(out);
  // Stopped, the hunt stops its run (node-tests.ts kills what its tests started only at its own end).
  const stop = () => {
    process.kill(-child.pid!, 'SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      resolve({ status, log });
    }),
  );
}

/** How many processes the preload planned stalls for, and how long the helper processes' plans were in all. */
function stalled(folder: string): { processes: number; seconds: number } {
  let processes = 0;
  let ms = 0;
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry);
      if (entry.startsWith('file-')) walk(file);
      else {
        // A test file's process has no list: its stalls go on as long as it runs.
        const plan = JSON.parse(readFileSync(file, 'utf8')) as { start: number; later?: { ms: number }[] };
        processes++;
        ms += plan.start + (plan.later ?? []).reduce((sum, stall) => sum + stall.ms, 0);
      }
    }
  };
  walk(folder);
  return { processes, seconds: Math.round(ms / 1000) };
}

let anyFailed = false;
process.stdout.write(
  `stall-hunt: ${files.length} file(s), seeds ${seeds.join(', ')}, stalls of ${maxMs / 2}-${maxMs} ms\n`,
);
for (const seed of seeds) {
  const dir = mkdtempSync(path.join(tmpdir(), `codelabgen-stall-${seed}-`));
  const started = Date.now();
  const { status, log } = await hunt(seed, dir);
  let failures: Failure[] = [];
  try {
    failures = readFileSync(path.join(dir, 'failures.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Failure);
  } catch {}
  const { processes, seconds } = stalled(path.join(dir, 'stalls'));
  const wall = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `seed ${seed}: ${failures.length} failed, exit ${status} in ${wall} s; ${processes} processes stalled, ${seconds} s planned for those not test files\n`,
  );
  for (const failure of failures) {
    process.stdout.write(
      `  ✖ ${failure.file}:${failure.line ?? '?'} › ${failure.name} (seed ${seed})\n` +
        `      ${failure.error}\n` +
        `      again: node scripts/stall-hunt.ts --seed ${seed} --max-ms ${maxMs} ${failure.file}\n`,
    );
  }
  if (status !== 0 || failures.length > 0) {
    anyFailed = true;
    // What failed the run besides its tests (a lost result, a file stopped at the timeout).
    for (const line of readFileSync(log, 'utf8').split('\n'))
      if (/^\s*(node-tests:|no result:|hung:)/.test(line)) process.stdout.write(`  ${line.trim()}\n`);
    process.stdout.write(`  log and stall plans: ${dir}\n`);
  } else rmSync(dir, { recursive: true, force: true });
}
process.exitCode = anyFailed ? 1 : 0;
