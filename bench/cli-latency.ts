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
  let stage = 'pending';
  const commands: Array<[string, () => string[]]> = [
    ['node -e 0', () => ['-e', '0']],
    ['state show --json', () => [CLI, 'state', 'show', '--json', '--course', root]],
    ['state next', () => [CLI, 'state', 'next', '--course', root]],
    ['state log', () => [CLI, 'state', 'log', 'bench', '--data', 'k=v', '--course', root]],
    ['state set', () => {
      stage = stage === 'pending' ? 'spec' : 'pending';
      return [CLI, 'state', 'set', '1.1', stage, '--note', 'bench', '--course', root];
    }],
  ];
  const samples = new Map(commands.map(([name]) => [name, [] as number[]]));
  for (let round = 0; round < rounds + 1; round += 1) {
    for (const [name, argv] of commands) {
      const ms = timed(argv());
      if (round > 0) samples.get(name)!.push(ms); // round 0 warms the page cache
    }
  }
  const node = summarize(samples.get('node -e 0')!);
  return commands.map(([name]) => {
    const summary = summarize(samples.get(name)!);
    return { command: name, ...summary, median_vs_node: ratio(summary.median_ms, node.median_ms), p95_vs_node: ratio(summary.p95_ms, node.p95_ms) };
  });
}

export async function benchCliLatency(quick: boolean): Promise<{ lessons: number; rounds: number; rows: LatencyRow[] }> {
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
