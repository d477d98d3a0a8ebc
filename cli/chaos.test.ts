// Chaos: 6 workers make CHAOS_CASES calls in all (default 60; seeded by CHAOS_SEED, default 1) that
// change state while about 30% of them are SIGKILLed at a random moment. Every event must trace back to exactly one attempted call (by the
// unique id in its command line and its pid), acknowledged calls must all be there, refused ones
// must not, seq must be gapless, replay must equal state, and no lock or temp file may survive.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { buildStateCourse } from '../bench/state-course.ts';
import { prng } from './fuzz-cases.ts';
import { cli, cliAsync, readEvents, removeDir, tempDir, type CliResult } from './testing.ts';

const WORKERS = 6;
const LESSONS_PER_WORKER = 2;
const CASES = Number(process.env.CHAOS_CASES ?? 60);
const KILL_RATE = 0.3;
const SEED = Number(process.env.CHAOS_SEED ?? 1);

type Outcome = 'acked' | 'refused' | 'killed' | 'unexpected';
interface Attempt {
  uid: string;
  op: 'log' | 'set' | 'task-start' | 'task-done';
  pid: number | undefined;
  outcome: Outcome;
  detail: string;
}

/** The operations the storm mixes with `state log`: every one of them is required. */
const ALL_OPS = { set: true, task: true } as const;

interface Worker {
  id: number;
  lessons: string[];
  /** Believed stage of each lesson (pending|spec); resynced from state after any unknown outcome. */
  stages: Map<string, string>;
  runningTask: string | null;
}

/** Re-reads the worker's lessons and running task (async: a sync spawn would stall the kill timers). */
async function resync(root: string, worker: Worker): Promise<void> {
  const shown = await cliAsync(['state', 'show', '--json', '--course', root]).done;
  assert.equal(shown.code, 0, `state show --json during the storm: ${shown.code ?? shown.signal} ${shown.stderr}`);
  const state = JSON.parse(shown.stdout) as {
    lessons: Record<string, { stage: string }>;
    tasks: Record<string, { id: string; role: string; status: string }>;
  };
  for (const lesson of worker.lessons) worker.stages.set(lesson, state.lessons[lesson]?.stage ?? 'pending');
  const mine = Object.values(state.tasks).filter(
    (task) => task.status === 'running' && task.role.startsWith(`chaos-w${worker.id}-`),
  );
  worker.runningTask = mine[0]?.id ?? null;
}

function nextCall(
  worker: Worker,
  uid: string,
  random: () => number,
  can: { set: boolean; task: boolean },
): { op: Attempt['op']; args: string[] } {
  const roll = random();
  const lesson = worker.lessons[Math.floor(random() * worker.lessons.length)] ?? worker.lessons[0]!;
  if (can.set && roll < 0.35) {
    const to = worker.stages.get(lesson) === 'spec' ? 'pending' : 'spec';
    return { op: 'set', args: ['state', 'set', lesson, to, '--note', uid] };
  }
  if (can.task && roll < 0.65) {
    if (worker.runningTask)
      return { op: 'task-done', args: ['state', 'task', 'done', worker.runningTask, '--note', uid] };
    return { op: 'task-start', args: ['state', 'task', 'start', lesson, '--role', `chaos-w${worker.id}-${uid}`] };
  }
  return {
    op: 'log',
    args: [
      'state',
      'log',
      'chaos',
      '--lesson',
      lesson,
      '--data',
      `id=${uid}`,
      '--data',
      'note=\u0007bell and "quotes"',
    ],
  };
}

async function runCall(
  root: string,
  args: string[],
  kill: number | null,
): Promise<{ result: CliResult; pid: number | undefined }> {
  const { child, done } = cliAsync([...args, '--course', root]);
  const timer = kill === null ? null : setTimeout(() => child.kill('SIGKILL'), kill);
  const result = await done;
  if (timer) clearTimeout(timer);
  return { result, pid: child.pid };
}

function outcomeOf(result: CliResult): Outcome {
  if (result.signal === 'SIGKILL') return 'killed';
  if (result.code === 0) return 'acked';
  if (result.code === 2 && /^error: .+\n(hint: .+\n)*$/.test(result.stderr)) return 'refused';
  return 'unexpected';
}

async function work(
  root: string,
  worker: Worker,
  calls: number,
  can: { set: boolean; task: boolean },
  attempts: Attempt[],
): Promise<void> {
  const random = prng(SEED * 31 + worker.id);
  let typicalMs = 300; // how long a call takes on this machine now: kills land anywhere in it
  for (let n = 1; n <= calls; n += 1) {
    const uid = `u${worker.id}x${n}`;
    const call = nextCall(worker, uid, random, can);
    // Half the kills anywhere in a call, half late in it, where the lock is held and the write happens.
    const at = random() < 0.5 ? random() * 1.1 : 0.6 + random() * 0.5;
    const kill = random() < KILL_RATE ? Math.floor(at * typicalMs) : null;
    const started = Date.now();
    const { result, pid } = await runCall(root, call.args, kill);
    const outcome = outcomeOf(result);
    if (outcome === 'acked') typicalMs = 0.8 * typicalMs + 0.2 * (Date.now() - started);
    attempts.push({
      uid,
      op: call.op,
      pid,
      outcome,
      detail: `${call.args.join(' ')} → ${result.code ?? result.signal} ${result.stderr.trim()}`,
    });
    if (outcome === 'acked') applyBelief(worker, call, result.stdout);
    else await resync(root, worker);
  }
}

function applyBelief(worker: Worker, call: { op: Attempt['op']; args: string[] }, stdout: string): void {
  if (call.op === 'set') worker.stages.set(call.args[2]!, call.args[3]!);
  if (call.op === 'task-done') worker.runningTask = null;
  if (call.op === 'task-start') worker.runningTask = /\bt[1-9][0-9]*\b/.exec(stdout)?.[0] ?? null;
}

function uidOf(event: Record<string, unknown>): string | undefined {
  return /\bu\d+x\d+\b/.exec(String(event.command ?? ''))?.[0];
}

test(`chaos: ${WORKERS} workers, ${CASES} calls, ~${KILL_RATE * 100}% SIGKILLed (CHAOS_SEED=${SEED} CHAOS_CASES=${CASES})`, {
  timeout: 300_000 + CASES * 2_000,
}, async () => {
  console.log(`chaos seed ${SEED}, ${CASES} calls (replay with CHAOS_SEED=${SEED} CHAOS_CASES=${CASES})`);
  const root = path.join(tempDir('codelabgen-chaos-'), 'course');
  try {
    buildStateCourse(root, { lessons: WORKERS * LESSONS_PER_WORKER, perModule: LESSONS_PER_WORKER, specs: true });
    const setupEvents = readEvents(root).length;
    const can = ALL_OPS;
    const workers: Worker[] = Array.from({ length: WORKERS }, (_, i) => ({
      id: i + 1,
      lessons: Array.from({ length: LESSONS_PER_WORKER }, (_, l) => `${i + 1}.${l + 1}`),
      stages: new Map(),
      runningTask: null,
    }));
    const attempts: Attempt[] = [];
    const callsOf = (worker: Worker) => Math.floor(CASES / WORKERS) + (worker.id <= CASES % WORKERS ? 1 : 0);
    await Promise.all(workers.map((worker) => work(root, worker, callsOf(worker), can, attempts)));

    // The next command after the storm recovers whatever the last killed call left behind.
    const final = cli(['state', 'log', 'chaos-final', '--course', root]);
    assert.equal(final.code, 0, final.stderr);
    const leftovers = readdirSync(path.join(root, '.codelabgen')).filter(
      (name) => name === 'lock' || name.startsWith('lock.') || name.endsWith('.tmp'),
    );
    assert.deepEqual(leftovers, [], 'no lock, break guard or temp file survives the next command');

    const unexpected = attempts.filter((attempt) => attempt.outcome === 'unexpected');
    assert.deepEqual(
      unexpected.map((a) => a.detail),
      [],
      'every call ends acknowledged (0), refused (2, one error line) or killed',
    );

    const events = readEvents(root);
    events.forEach((event, index) => assert.equal(event.seq, index + 1, `seq is gapless at line ${index + 1}`));
    const byUid = new Map(attempts.map((attempt) => [attempt.uid, attempt]));
    const seen = new Set<string>();
    for (const event of events.slice(setupEvents, -1)) {
      const uid = uidOf(event);
      assert.ok(
        uid !== undefined && byUid.has(uid),
        `event seq ${String(event.seq)} was never attempted: ${String(event.command)}`,
      );
      assert.ok(!seen.has(uid), `event for ${uid} appears twice`);
      seen.add(uid);
      const attempt = byUid.get(uid)!;
      assert.equal(event.pid, attempt.pid, `event for ${uid} was committed by the process that ran it`);
      assert.notEqual(attempt.outcome, 'refused', `a refused call changed the log: ${attempt.detail}`);
    }
    const lost = attempts.filter((attempt) => attempt.outcome === 'acked' && !seen.has(attempt.uid));
    assert.deepEqual(
      lost.map((a) => a.detail),
      [],
      'every acknowledged change is in the log',
    );

    const check = cli(['check', '--json', '--course', root]);
    const replay = (JSON.parse(check.stdout) as { checks: Array<{ name: string; problems: string[] }> }).checks.find(
      (c) => /replay/.test(c.name),
    );
    assert.deepEqual(replay?.problems, [], 'replaying the log gives the stored state');

    const count = (outcome: Outcome) => attempts.filter((attempt) => attempt.outcome === outcome).length;
    const ops = [...new Set(attempts.map((a) => a.op))]
      .map((op) => `${op} ${attempts.filter((a) => a.op === op).length}`)
      .join(', ');
    const torn = readdirSync(path.join(root, '.codelabgen')).filter((name) => name.includes('.torn-')).length;
    console.log(
      `chaos seed ${SEED}: calls ${attempts.length} (${ops}), acked ${count('acked')}, refused ${count('refused')}, killed ${count('killed')}, ` +
        `events ${events.length - setupEvents - 1} (killed calls that committed: ${seen.size - count('acked')}), torn tails kept aside ${torn}`,
    );
    assert.ok(attempts.length >= WORKERS * 2, 'the storm ran enough calls to mean something');
    assert.ok(count('killed') > 0 && count('acked') > 0, 'some calls were killed and some acknowledged');
  } finally {
    removeDir(path.dirname(root));
  }
});
