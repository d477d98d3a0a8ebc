// `check` on a 200-lesson course (one diagram per lesson): without diagrams (what `check` did before
// it parsed them), and with them, the parse outcomes cold (a fresh diagram cache), warm (every
// outcome kept) and after one lesson's diagram changed. Interleaved round by round; ratios to the
// course without diagrams. Issue 40's bar: `check` stays under 2x its time before diagrams parsed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateCourse } from './generate-course.ts';
import { CLI } from './state-course.ts';
import { ratio, round, since, summarize } from './stats.ts';

export interface CheckBench {
  lessons: number;
  rounds: number;
  rows: Array<{ case: string; median_ms: number; vs_without_diagrams: number | null }>;
}

/** Milliseconds of one `check` (exit 0 or 1: a finding is not a failure of the bench). */
function timeCheck(root: string, cache: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [CLI, 'check'], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', CODELABGEN_DIAGRAM_CACHE: cache },
    encoding: 'utf8',
  });
  const ms = since(start);
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`check exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  return ms;
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
    timeCheck(drawn, warmCache); // fills the warm cache
    const samples: Record<string, number[]> = { without_diagrams: [], cold: [], warm: [], one_changed: [] };
    for (let i = 0; i < rounds; i++) {
      samples.without_diagrams!.push(timeCheck(plain, path.join(dir, `cache-plain-${i}`)));
      samples.cold!.push(timeCheck(drawn, path.join(dir, `cache-cold-${i}`)));
      samples.warm!.push(timeCheck(drawn, warmCache));
      const changed = path.join(drawn, dirs[0]!, 'docs', 'diagrams', 'changed.mmd');
      writeFileSync(changed, `flowchart LR\n  round${i} --> changed${i}\n`);
      samples.one_changed!.push(timeCheck(drawn, warmCache));
      rmSync(changed);
    }
    const base = summarize(samples.without_diagrams!).median_ms;
    const rows = Object.entries(samples).map(([name, ms]) => {
      const median = summarize(ms).median_ms;
      return { case: name, median_ms: round(median, 0), vs_without_diagrams: ratio(median, base) };
    });
    return { lessons, rounds, rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
