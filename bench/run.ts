// `npm run bench [-- --quick] [--only check,cli,contention,dev,mcp,progress,scale,site,side-by-side]`: runs the
// benchmarks and prints
// ONE JSON document on stdout (a short table on stderr when it is a terminal).
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import type { DevBench } from './dev.ts';

const PARTS = ['check', 'cli', 'contention', 'dev', 'mcp', 'progress', 'scale', 'site', 'side-by-side'] as const;
type Part = (typeof PARTS)[number];
/** What runs without --only: the side-by-side comparison with Starlight only when asked for. */
const DEFAULT_PARTS: Part[] = PARTS.filter((part) => part !== 'side-by-side');

const USAGE = `usage: node bench/run.ts [--quick] [--only ${PARTS.join(',')}]
Runs the benchmarks (all parts but side-by-side unless --only; a few minutes on an idle 2-core
machine) and prints one JSON document on stdout. docs/performance.md says what each part measures;
side-by-side (codelabgen's learner site and Starlight, screenshots into $BENCH_SHOTS or a temporary
folder) is docs/site.md's "Side by side with Starlight".
`;

function parseArgs(argv: string[]): { quick: boolean; only: Part[] } {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const stray = argv.filter((arg, index) => arg !== '--quick' && arg !== '--only' && argv[index - 1] !== '--only');
  if (stray.length > 0) {
    process.stderr.write(`error: unknown argument ${stray[0]}: the options are --quick and --only PARTS\n`);
    process.exit(2);
  }
  const quick = argv.includes('--quick');
  const at = argv.indexOf('--only');
  const given = at === -1 ? [...DEFAULT_PARTS] : (argv[at + 1] ?? '').split(',');
  const unknown = given.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) {
    process.stderr.write(`error: --only ${unknown.join(',')}: choose from ${PARTS.join(',')}\n`);
    process.exit(2);
  }
  return { quick, only: given as Part[] };
}

// Each part is loaded only when it runs: --help and a refused argument load none of them (their
// imports cost a test run of bench/bench.test.ts most of its CPU), and dev and side-by-side pull in
// Playwright.
const RUNNERS: Record<Part, (quick: boolean) => Promise<unknown>> = {
  check: async (quick) => (await import('./check.ts')).benchCheck(quick),
  cli: async (quick) => (await import('./cli-latency.ts')).benchCliLatency(quick),
  contention: async (quick) => (await import('./contention.ts')).benchContention(quick),
  dev: async (quick): Promise<DevBench> => (await import('./dev.ts')).benchDev(quick),
  mcp: async (quick) => (await import('./mcp.ts')).benchMcp(quick),
  progress: async (quick) => (await import('./progress.ts')).benchProgress(quick),
  scale: async (quick) => (await import('./scale.ts')).benchScale(quick),
  site: async (quick) => (await import('./site.ts')).benchSite(quick),
  // Playwright and axe.
  'side-by-side': async () => {
    const { benchSideBySide } = await import('./side-by-side.ts');
    return benchSideBySide({ shots: process.env.BENCH_SHOTS || mkdtempSync(path.join(tmpdir(), 'codelabgen-shots-')) });
  },
};

const { quick, only } = parseArgs(process.argv.slice(2));
const started = Date.now();
// Ratios hold up on a busy machine better than times, but a reader still wants to know it was busy.
const loadAtStart = loadavg().map((value) => Math.round(value * 100) / 100);
process.stderr.write(`load average at start: ${loadAtStart.join(' ')} (1, 5, 15 min) on ${cpus().length} CPUs\n`);
const results: Record<string, unknown> = {};
for (const part of only) {
  const t = Date.now();
  results[part] = await RUNNERS[part](quick);
  if (process.stderr.isTTY) process.stderr.write(`${part}: ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
}
const doc = {
  machine: {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    load_average_at_start: loadAtStart,
    load_average_at_end: loadavg().map((value) => Math.round(value * 100) / 100),
  },
  quick,
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  started_at: new Date(started).toISOString(),
  duration_s: Math.round((Date.now() - started) / 100) / 10,
  ...results,
};
process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
if (process.stderr.isTTY) process.stderr.write(table(results));

function table(r: Record<string, any>): string {
  const lines: string[] = [];
  for (const row of r.cli?.rows ?? [])
    lines.push(
      `cli   ${row.command.padEnd(18)} median ${row.median_ms} ms  p95 ${row.p95_ms} ms  ×node ${row.median_vs_node}`,
    );
  for (const row of r.contention ?? [])
    lines.push(
      `lock  ${String(row.writers).padStart(2)} writers  ${row.changes_per_s}/s  p50 ${row.p50_ms} ms  p99 ${row.p99_ms} ms  lost ${row.lost_updates}`,
    );
  for (const row of r.mcp?.latency ?? [])
    lines.push(
      `mcp   ${row.tool.padEnd(18)} median ${row.mcp.median_ms} ms vs CLI ${row.cli.median_ms} ms  ×${row.median_vs_cli}`,
    );
  if (r.mcp?.updates)
    lines.push(
      `mcp   resources/updated after another process's commit: median ${r.mcp.updates.after_commit.median_ms} ` +
        `ms, p99 ${r.mcp.updates.after_commit.p99_ms} ms (${r.mcp.updates.rounds} commits)`,
    );
  if (r.mcp?.clients)
    lines.push(
      `mcp   ${r.mcp.clients.clients} clients state_log  ${r.mcp.clients.changes_per_s}/s  p50 ` +
        `${r.mcp.clients.p50_ms} ms  p99 ${r.mcp.clients.p99_ms} ms  lost ${r.mcp.clients.lost_updates}  ` +
        `CPU/change server ${r.mcp.clients.server_cpu_ms_per_change} ms, client ` +
        `${r.mcp.clients.client_cpu_ms_per_change} ms`,
    );
  if (r.progress)
    lines.push(
      `prog  ${r.progress.lessons} lessons, ${r.progress.events} events: state set → page median ` +
        `${r.progress.update_latency.median_ms} ms (${r.progress.after_command.median_ms} ms after the CLI ` +
        `exited)  board update CPU ${r.progress.board_update_cpu_ms} ms  server CPU/change ` +
        `${r.progress.server_cpu_ms_per_change} ms  page ${(r.progress.page_html_bytes / 1024).toFixed(1)} KB ` +
        'HTML',
    );
  if (r.dev)
    lines.push(
      `dev   ${r.dev.saves} notes saves under site dev: save → visible median ${r.dev.save_to_visible.median_ms} ms, ` +
        `p95 ${r.dev.save_to_visible.p95_ms} ms, ${r.dev.content_syncs} content syncs`,
    );
  for (const row of r.check?.rows ?? [])
    lines.push(
      `check ${r.check.lessons} lessons ${row.case.padEnd(25)} median ${row.median_ms} ms  ×${row.vs_without_diagrams}` +
        `  CPU ${row.cpu_median_ms} ms  ×${row.cpu_vs_without_diagrams}`,
    );
  for (const row of r.scale?.rows ?? [])
    lines.push(`scale ${row.command.padEnd(18)} ${row.small_median_ms} → ${row.large_median_ms} ms  ×${row.ratio}`);
  for (const [name, ms] of Object.entries(r.scale?.once_ms ?? {})) lines.push(`scale ${name.padEnd(18)} ${ms} ms`);
  for (const d of r.site?.diagrams_cold ?? [])
    lines.push(`site  ${d.diagrams} diagrams (${d.kind}) rendered cold ${d.ms} ms`);
  for (const row of r['side-by-side']?.rows ?? [])
    lines.push(`sbs   ${row.verdict.padEnd(6)} ${row.criterion}: ${row.codelabgen} | ${row.starlight}`.slice(0, 200));
  for (const row of r.site?.rows ?? [])
    lines.push(
      `site  ${row.lessons} lessons  clean ${row.clean_ms} ms (${row.clean_vs_bare}x bare Astro; diagrams ` +
        `cached ${row.clean_cached_diagrams_ms} ms, ${row.clean_cached_diagrams_vs_bare}x)  rebuild ` +
        `${row.rebuild_ms} ms (${row.rebuild_vs_bare}x bare warm)  1 lesson edited ${row.edit_one_ms} ms (` +
        `${row.edit_one_vs_clean}x clean; lesson pages rendered ${row.lesson_pages_rendered.clean}/` +
        `${row.lesson_pages_rendered.rebuild}/${row.lesson_pages_rendered.edit_one})  lesson page ` +
        `${(row.bytes_per_lesson_page.html / 1024).toFixed(1)} KB HTML`,
    );
  return `${lines.join('\n')}\n`;
}
