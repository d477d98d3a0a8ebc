// Contention: W parallel writers × N `state log` changes each, every change carrying a unique id;
// throughput, per-call p50/p99, and lost updates (acknowledged ids missing from the log; must be 0).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildStateCourse, CLI } from './state-course.ts';
import { round, since, summarize } from './stats.ts';

export interface ContentionRow {
  writers: number;
  changes: number;
  wall_ms: number;
  changes_per_s: number;
  p50_ms: number;
  p99_ms: number;
  refused: number;
  lost_updates: number;
}

function run(argv: string[]): Promise<{ code: number | null; ms: number }> {
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, argv, {
    env: { ...process.env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '120' },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ms: since(start) })));
}

async function contend(writers: number, perWriter: number): Promise<ContentionRow> {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-contention-'));
  try {
    const root = path.join(dir, 'course');
    buildStateCourse(root, { lessons: 10 });
    const samples: number[] = [];
    const acked = new Set<string>();
    let refused = 0;
    const start = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let n = 0; n < perWriter; n += 1) {
          const id = `w${w}n${n}`;
          const result = await run([CLI, 'state', 'log', 'contention', '--data', `id=${id}`, '--course', root]);
          samples.push(result.ms);
          if (result.code === 0) acked.add(id);
          else refused += 1;
        }
      }),
    );
    const wall = since(start);
    const logged = new Set(
      readFileSync(path.join(root, '.codelabgen', 'events.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { data?: { id?: string } }).data?.id),
    );
    const lost = [...acked].filter((id) => !logged.has(id)).length;
    const summary = summarize(samples);
    return {
      writers,
      changes: writers * perWriter,
      wall_ms: round(wall, 0),
      changes_per_s: round((writers * perWriter) / (wall / 1000), 1),
      p50_ms: summary.median_ms,
      p99_ms: summary.p99_ms,
      refused,
      lost_updates: lost,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchContention(quick: boolean): Promise<ContentionRow[]> {
  const rows: ContentionRow[] = [];
  const changes = Number(process.env.BENCH_CHANGES ?? (quick ? 3 : 50)); // per writer
  for (const writers of quick ? [1, 4] : [1, 4, 8, 16]) rows.push(await contend(writers, changes));
  return rows;
}
