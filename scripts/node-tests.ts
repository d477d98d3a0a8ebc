// Runs the Node test files (`node --test` over the same folders) with the slowest files started
// first, so that four at a time finish together instead of one long file running alone at the end
// (`node --test` itself always runs files in alphabetical order). Prints the spec report, then the
// slowest files: keep SLOW_FIRST in step with that list. Usage: node scripts/node-tests.ts [--concurrency N] [FILE...] (only those files, in that order)
import { globSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PATTERNS = [
  'content-schemas/**/*.test.ts',
  'pipeline/**/*.test.ts',
  'cli/**/*.test.ts',
  'site/**/*.test.ts',
  'examples/*.test.ts',
  'bench/**/*.test.ts',
];
/** Files that take longest (a serial chain of site builds, installs or CLI runs), slowest first. */
const SLOW_FIRST = [
  'cli/package.test.ts',
  'pipeline/site/site-build.test.ts',
  'cli/orchestrator.test.ts',
  'pipeline/site/mdx-site.test.ts',
  'pipeline/site/astro-mount.test.ts',
  'cli/verify.test.ts',
  'site/site-config.test.ts',
  'cli/mcp.test.ts',
  'cli/mcp-conformance.test.ts',
  'pipeline/site/site-rebuild.test.ts',
  'cli/protocol.test.ts',
  'cli/progress.test.ts',
  'cli/refusals.test.ts',
  'pipeline/site/site-errors.test.ts',
  'pipeline/store/lock.test.ts',
  'cli/authoring.test.ts',
  'cli/budgets.test.ts',
  'cli/foundation.test.ts',
  'cli/fuzz.test.ts',
];

const { values, positionals } = parseArgs({
  options: { concurrency: { type: 'string', default: '4' } },
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

const durations = new Map<string, number>(); // file → ms
let failed = false;
const stream = run({ files: files.map((file) => path.resolve(REPO, file)), concurrency: Number(values.concurrency) });
stream.on('test:fail', () => (failed = true));
stream.on('test:complete', (data) => {
  // A file's own entry: its name is its path.
  if (data.file !== undefined && data.name === data.file)
    durations.set(path.relative(REPO, data.file), data.details.duration_ms);
});
const report = stream.compose(new spec());
report.pipe(process.stdout, { end: false }); // stdout stays open for the list below
await finished(report);

const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, 15);
process.stdout.write(`\nslowest test files (wall time while ${values.concurrency} ran at once):\n`);
for (const [file, ms] of slowest) process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
process.exitCode = failed ? 1 : 0;
