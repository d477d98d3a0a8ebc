// Scale: a course of 1,000 lessons and 100,000 events against a 10-lesson course, the same
// commands' latency as a ratio (interleaved round by round), plus report, check and state rebuild.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measurePaired } from './cli-latency.ts';
import { buildStateCourse, CLI } from './state-course.ts';
import { ratio, round, since } from './stats.ts';

export interface ScaleResult {
  lessons: number;
  events: number;
  generate_ms: number;
  rows: Array<{
    command: string;
    small_median_ms: number;
    large_median_ms: number;
    large_p95_ms: number;
    ratio: number | null;
  }>;
  once_ms: Record<string, number>;
}

function once(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = since(start);
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  return round(ms, 0);
}

export async function benchScale(quick: boolean): Promise<ScaleResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-scale-'));
  const lessons = quick ? 50 : 1000;
  const events = quick ? 500 : 100_000;
  const rounds = quick ? 2 : 15;
  try {
    const small = path.join(dir, 'small');
    const large = path.join(dir, 'large');
    buildStateCourse(small, { lessons: 10, specs: true });
    const start = process.hrtime.bigint();
    buildStateCourse(large, { lessons, events, specs: true });
    const generate = since(start);
    const [smallRows = [], largeRows = []] = measurePaired([small, large], rounds);
    const rows = smallRows
      .filter((row) => row.command !== 'node -e 0')
      .map((row) => {
        const big = largeRows.find((other) => other.command === row.command)!;
        return {
          command: row.command,
          small_median_ms: row.median_ms,
          large_median_ms: big.median_ms,
          large_p95_ms: big.p95_ms,
          ratio: ratio(big.median_ms, row.median_ms),
        };
      });
    const onceMs = {
      report: once(['report', '--json', '--course', large]),
      check: once(['check', '--json', '--course', large]),
      'state rebuild': once(['state', 'rebuild', '--course', large]),
    };
    return { lessons, events, generate_ms: round(generate, 0), rows, once_ms: onceMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
