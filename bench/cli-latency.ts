// CLI latency: `state show --json`, `state next`, `state log`, `state set` against `node -e 0`,
// interleaved round by round in the same run so machine noise hits every command alike.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildStateCourse, CLI } from './state-course.ts';
import { ratio, since, summarize, type Summary } from './stats.ts';

export interface LatencyRow extends Summary {
  command: string;
  median_vs_node: number | null;
  p95_vs_node: number | null;
}

const ENV = { ...process.env, NO_COLOR: '1' };

function timed(argv: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { env: ENV, encoding: 'utf8' });
  const ms = since(start);
  if (result.status !== 0) throw new Error(`${argv.slice(1).join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** The measured commands on `root`; `state set` flips lesson 1.1 between pending and spec. */
export function measureLatency(root: string, rounds: number): LatencyRow[] {
  return measurePaired([root], rounds)[0]!;
}

/**
 * The same commands on each course of `roots`, interleaved round by round (and with `node -e 0`),
 * so a change in the machine's load during the run hits every course alike. Rows per root.
 */
export function measurePaired(roots: readonly string[], rounds: number): LatencyRow[][] {
  const stages = roots.map(() => 'pending');
  const commands: Array<[string, (at: number) => string[]]> = [
    ['node -e 0', () => ['-e', '0']],
    ['state show --json', (at) => [CLI, 'state', 'show', '--json', '--course', roots[at]!]],
    ['state next', (at) => [CLI, 'state', 'next', '--course', roots[at]!]],
    ['state log', (at) => [CLI, 'state', 'log', 'bench', '--data', 'k=v', '--course', roots[at]!]],
    [
      'state set',
      (at) => {
        stages[at] = stages[at] === 'pending' ? 'spec' : 'pending';
        return [CLI, 'state', 'set', '1.1', stages[at]!, '--note', 'bench', '--course', roots[at]!];
      },
    ],
  ];
  const samples = roots.map(() => new Map(commands.map(([name]) => [name, [] as number[]])));
  for (let round = 0; round < rounds + 1; round += 1) {
    for (const [name, argv] of commands) {
      roots.forEach((_, at) => {
        if (name === 'node -e 0' && at > 0) return; // one node -e 0 per round serves every course
        const ms = timed(argv(at));
        if (round > 0) samples[at]!.get(name)!.push(ms); // round 0 warms the page cache
      });
    }
  }
  const node = summarize(samples[0]!.get('node -e 0')!);
  return roots.map((_, at) =>
    commands.map(([name]) => {
      const summary = name === 'node -e 0' ? node : summarize(samples[at]!.get(name)!);
      return {
        command: name,
        ...summary,
        median_vs_node: ratio(summary.median_ms, node.median_ms),
        p95_vs_node: ratio(summary.p95_ms, node.p95_ms),
      };
    }),
  );
}

export async function benchCliLatency(
  quick: boolean,
): Promise<{ lessons: number; rounds: number; rows: LatencyRow[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-cli-'));
  try {
    const root = path.join(dir, 'course');
    buildStateCourse(root, { lessons: 10, specs: true });
    const rounds = quick ? 2 : 30;
    return { lessons: 10, rounds, rows: measureLatency(root, rounds) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
