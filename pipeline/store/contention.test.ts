// CONTENTION_WORKERS processes × CONTENTION_CALLS `state log` calls in parallel (4 × 10 in `npm test`,
// 8 × 50 in `npm run test:stress`): every call acknowledged, seq gapless, replay equals state, no
// lock or temp file left. Prints the figures (not asserted as times).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { cli, cliAsync, makeCourse, readEvents, removeDir } from '../../cli/testing.ts';

const WORKERS = Number(process.env.CONTENTION_WORKERS ?? 4);
const CALLS = Number(process.env.CONTENTION_CALLS ?? 10);

let root = '';
after(() => root && removeDir(path.dirname(root)));

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function worker(id: number, latencies: number[], failures: string[]): Promise<void> {
  for (let call = 0; call < CALLS; call += 1) {
    const started = performance.now();
    const result = await cliAsync(['state', 'log', 'contention', '--data', `worker=${id}`, '--data', `call=${call}`], {
      cwd: root,
      env: { CODELABGEN_LOCK_TIMEOUT: '120' },
    }).done;
    latencies.push(performance.now() - started);
    if (result.code !== 0) failures.push(`worker ${id} call ${call}: exit ${result.code} ${result.stderr.trim()}`);
  }
}

test(`${WORKERS} processes × ${CALLS} state log calls: ${WORKERS * CALLS} events, seq gapless, replay equals state, nothing left behind`, {
  timeout: 900_000,
}, async () => {
  root = makeCourse();
  const latencies: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id, latencies, failures)));
  const wallMs = performance.now() - started;
  assert.deepEqual(failures, []);

  const events = readEvents(root);
  assert.equal(events.length, WORKERS * CALLS + 1, 'the init event plus one per call');
  assert.deepEqual(
    events.map((event) => event.seq),
    Array.from({ length: events.length }, (_, index) => index + 1),
  );
  const seen = new Set(events.slice(1).map((event) => JSON.stringify(event.data)));
  assert.equal(seen.size, WORKERS * CALLS, 'each call is in the log exactly once');
  for (let id = 0; id < WORKERS; id += 1) {
    const calls = events
      .filter((event) => (event.data as Record<string, string> | undefined)?.worker === String(id))
      .map((event) => Number((event.data as Record<string, string>).call));
    assert.deepEqual(
      calls,
      Array.from({ length: CALLS }, (_, call) => call),
      `worker ${id}'s calls are in its order`,
    );
  }
  const check = cli(['check'], { cwd: root });
  assert.equal(check.code, 0, `${check.stdout}${check.stderr}`);
  const leftovers = readdirSync(path.join(root, '.codelabgen')).filter(
    (name) => name === 'lock' || name === 'lock.break' || name.endsWith('.tmp'),
  );
  assert.deepEqual(leftovers, []);

  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      contention: {
        workers: WORKERS,
        calls_per_worker: CALLS,
        events: WORKERS * CALLS,
        wall_s: +(wallMs / 1000).toFixed(2),
        throughput_per_s: +((WORKERS * CALLS) / (wallMs / 1000)).toFixed(1),
        p50_ms: Math.round(percentile(sorted, 50)),
        p99_ms: Math.round(percentile(sorted, 99)),
        lost: 0,
      },
    }),
  );
});
