// `check` on a 200-lesson course (one diagram per lesson): without diagrams (what `check` did before
// it parsed them), and with them: warm (every outcome kept in the diagram cache), one lesson's
// diagram changed, 200 new diagrams on a machine that has parsed diagrams before (no outcome kept,
// V8's compile cache of mermaid warm), and a brand-new user (an empty diagram cache). Interleaved
// round by round; wall-clock and CPU (the command and its children, Linux) medians, ratios to the
// course without diagrams. Issue 40's bar: `check` stays under 2x its time before diagrams parsed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCourse } from './generate-course.ts';
import { CLI } from './state-course.ts';
import { ratio, round, since, summarize } from './stats.ts';

export interface CheckBench {
  lessons: number;
  rounds: number;
  rows: Array<{
    case: string;
    median_ms: number;
    vs_without_diagrams: number | null;
    cpu_median_ms: number | null;
    cpu_vs_without_diagrams: number | null;
  }>;
}

/** CPU milliseconds of this process's waited-for children (and theirs): /proc/self/stat's cutime + cstime, or null. */
function childrenCpuMs(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // fields 16 and 17, in clock ticks (100 Hz)
  } catch {
    return null;
  }
}

/** Wall and CPU milliseconds of one `check` (exit 0 or 1: a finding is not a failure of the bench). */
function timeCheck(root: string, cache: string): { ms: number; cpu: number | null } {
  const cpuBefore = childrenCpuMs();
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [CLI, 'check'], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', CODELABGEN_DIAGRAM_CACHE: cache },
    encoding: 'utf8',
  });
  const ms = since(start);
  const cpuAfter = childrenCpuMs();
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`check exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  return { ms, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

export async function benchCheck(quick: boolean): Promise<CheckBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-check-'));
  const lessons = 200;
  const rounds = quick ? 3 : 7;
  try {
    const plain = path.join(dir, 'without-diagrams');
    const drawn = path.join(dir, 'with-diagrams');
    await generateCourse(plain, { lessons, diagram: () => null });
    const { dirs } = await generateCourse(drawn, { lessons });
    const warmCache = path.join(dir, 'cache-warm');
    timeCheck(drawn, warmCache); // fills the warm cache: the outcomes and the compile cache
    const cases = ['without_diagrams', 'warm', 'one_changed', 'new_diagrams_compile_warm', 'brand_new_user'] as const;
    const wall: Record<string, number[]> = Object.fromEntries(cases.map((name) => [name, []]));
    const cpu: Record<string, number[]> = Object.fromEntries(cases.map((name) => [name, []]));
    const sample = (name: (typeof cases)[number], root: string, cache: string) => {
      const { ms, cpu: cpuMs } = timeCheck(root, cache);
      wall[name]!.push(ms);
      if (cpuMs !== null) cpu[name]!.push(cpuMs);
    };
    for (let i = 0; i < rounds; i++) {
      sample('without_diagrams', plain, path.join(dir, `cache-plain-${i}`));
      sample('warm', drawn, warmCache);
      const changed = path.join(drawn, dirs[0]!, 'docs', 'diagrams', 'changed.mmd');
      writeFileSync(changed, `flowchart LR\n  round${i} --> changed${i}\n`);
      sample('one_changed', drawn, warmCache);
      rmSync(changed);
      const compileWarm = path.join(dir, `cache-compile-warm-${i}`);
      cpSync(path.join(warmCache, 'compile'), path.join(compileWarm, 'compile'), { recursive: true });
      sample('new_diagrams_compile_warm', drawn, compileWarm);
      sample('brand_new_user', drawn, path.join(dir, `cache-new-${i}`));
    }
    const base = summarize(wall.without_diagrams!).median_ms;
    const cpuBase = cpu.without_diagrams!.length > 0 ? summarize(cpu.without_diagrams!).median_ms : Number.NaN;
    const rows = cases.map((name) => {
      const median = summarize(wall[name]!).median_ms;
      const cpuMedian = cpu[name]!.length > 0 ? summarize(cpu[name]!).median_ms : null;
      return {
        case: name,
        median_ms: round(median, 0),
        vs_without_diagrams: ratio(median, base),
        cpu_median_ms: cpuMedian === null ? null : round(cpuMedian, 0),
        cpu_vs_without_diagrams: cpuMedian === null ? null : ratio(cpuMedian, cpuBase),
      };
    });
    return { lessons, rounds, rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
