// The stall hunt (docs/testing.md, "No premise a loaded machine breaks"): scripts/stall-preload.cjs
// stalls the processes it reaches as their seed says, and only with CODELABGEN_STALL set;
// scripts/stall-hunt.ts names a test whose premise a stall breaks, with the command that runs it again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PRELOAD = path.join(REPO, 'scripts', 'stall-preload.cjs');
// The environment as npm test gives it, whatever this file runs under (the hunt itself included).
const { NODE_TEST_CONTEXT: _context, CODELABGEN_STALL: _stall, NODE_OPTIONS: _options, ...env } = process.env;

function run(
  args: string[],
  extra: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: REPO, env: { ...env, ...extra } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

interface Plan {
  argv: string[];
  start: number;
  later: { at: number; ms: number }[];
}

/** The plans the preload wrote in `dir`, by file name (KEY.N), without the pids. */
function plans(dir: string): Map<string, Plan> {
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {}
  return new Map(
    names.map((name) => {
      const { pid: _pid, ...plan } = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Plan & { pid: number };
      return [name, plan];
    }),
  );
}

// Children that print how long after their start their script ran (performance.now(): the preload runs before it).
const CHILDREN = ['a', 'b', 'a', 'c', 'd'].map((name) => [
  '-e',
  `process.stdout.write(String(performance.now())) // ${name}`,
]);

/** The children one after another, with the preload and the setting given; the ms each took to reach its script. */
async function children(setting: string | undefined): Promise<number[]> {
  const reached: number[] = [];
  for (const args of CHILDREN) {
    const result = await run(args, {
      NODE_OPTIONS: `--require ${PRELOAD}`,
      ...(setting === undefined ? {} : { CODELABGEN_STALL: setting }),
    });
    assert.equal(result.status, 0, result.stderr);
    reached.push(Number(result.stdout));
  }
  return reached;
}

describe('the stall hunt', { concurrency: true }, () => {
  test('the preload stalls a process for at least the spans its seed gives, the same for the same seed, nothing without it', {
    timeout: 120_000,
  }, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-stall-test-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const [first, again, other] = ['first', 'again', 'other'].map((name) => path.join(dir, name));
    const reached = await children(`1:600:${first}`);
    const planned = plans(first!);
    assert.equal(planned.size, CHILDREN.length, [...planned.keys()].join(' '));
    // The same arguments counted apart: a's second run has a plan of its own.
    const names = [...planned.keys()];
    assert.equal(new Set(names.map((name) => name.split('.')[0])).size, CHILDREN.length - 1, names.join(' '));
    const starts = new Map([...planned].map(([name, plan]) => [plan.argv.join(' ') + name.split('.')[1], plan.start]));
    const byChild = CHILDREN.map((args, i) => {
      const count = CHILDREN.slice(0, i).filter((before) => before[1] === args[1]).length;
      return starts.get(args.join(' ') + count)!;
    });
    // The premise: this seed stalls some of them at their start (300-600 ms), not all.
    assert.ok(byChild.some((ms) => ms >= 300) && byChild.some((ms) => ms === 0), String(byChild));
    for (const [i, ms] of byChild.entries())
      assert.ok(reached[i]! >= ms, `child ${i}: ran at ${reached[i]} ms, stalled ${ms}`);
    for (const plan of planned.values())
      for (const stall of plan.later)
        assert.ok(stall.ms >= 300 && stall.ms <= 600 && stall.at >= 50, JSON.stringify(plan));
    await children(`1:600:${again}`);
    assert.deepEqual(plans(again!), planned);
    await children(`2:600:${other}`);
    assert.notDeepEqual([...plans(other!).values()], [...planned.values()]);
    // Without the variable it writes no plan and stalls nothing.
    await children(undefined);
    assert.deepEqual(readdirSync(dir).sort(), ['again', 'first', 'other']);
  });

  test('the hunt names the test a stall fails, with the command that runs it again; it passes without the hunt', {
    timeout: 300_000,
  }, async () => {
    const fixture = 'scripts/fixtures/planted-premise.fixture.ts';
    const [hunted, plain] = await Promise.all([
      run(['scripts/stall-hunt.ts', '--seed', '1', '--max-ms', '24000', fixture]),
      run(['scripts/node-tests.ts', fixture]),
    ]);
    const kept = /log and stall plans: (\S+)/.exec(hunted.stdout)?.[1];
    if (kept?.startsWith(tmpdir())) rmSync(kept, { recursive: true, force: true });
    assert.equal(hunted.status, 1, hunted.stdout + hunted.stderr);
    assert.match(
      hunted.stdout,
      new RegExp(
        `✖ ${fixture}:\\d+ › eight children answer within 10 s each \\(seed 1\\)\\n` +
          '.*did not answer within 10 s\\n' +
          ` *again: node scripts/stall-hunt\\.ts --seed 1 --max-ms 24000 ${fixture}\\n`,
      ),
    );
    assert.equal(plain.status, 0, plain.stdout);
    assert.match(plain.stdout, /✔ eight children answer within 10 s each/);
  });
});
