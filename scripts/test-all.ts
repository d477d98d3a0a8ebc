// `npm test`'s steps with the independent ones run at once: the CPU-bound Node tests overlap the
// browser tests, which mostly wait (docs/testing.md). Each step's output is
// printed when it ends; then a table of when each step started and how long it took, also written
// as tab-separated lines to $CODELABGEN_TEST_TIMINGS when set (.ci/run prints it). Exit 1 when a
// step fails (the steps after it are skipped, the others still run). Usage: node scripts/test-all.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupMembers, killAll } from './process-group.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(REPO, 'node_modules', '.bin', name);
const node = process.execPath;

interface Step {
  name: string;
  /** Steps that must have succeeded first. */
  after: string[];
  command: string[];
  env?: Record<string, string>;
  /** Runs at a lower CPU priority (nice 10): work that only fills the cores the browser tests leave idle. */
  background?: boolean;
}

// The e2e builds go to a folder made here (or $CODELABGEN_E2E_DIR), so that both Playwright runs
// reuse them (e2e/global-setup.ts) and they can be made while the Node tests run.
const ownE2eDir = !process.env.CODELABGEN_E2E_DIR;
const e2eDir = process.env.CODELABGEN_E2E_DIR
  ? path.resolve(process.env.CODELABGEN_E2E_DIR)
  : mkdtempSync(path.join(tmpdir(), 'codelabgen-e2e-'));
const e2eBuilt = existsSync(path.join(e2eDir, 'site-base', 'index.html'));
const e2eEnv = { CODELABGEN_E2E_DIR: e2eDir };

const STEPS: Step[] = [
  { name: 'build', after: [], command: [node, 'scripts/build.mjs'] },
  // Formatting and lint rules (biome.json).
  { name: 'lint', after: [], command: [bin('biome'), 'check', '.'] },
  // No hand-written line over 160 characters (Biome has no such rule): the rest of `npm run lint`.
  { name: 'line length', after: [], command: [node, 'scripts/line-length.ts'] },
  { name: 'tsc', after: ['build'], command: [bin('tsc'), '-p', 'tsconfig.json'], background: true },
  { name: 'astro-check', after: ['build'], command: [node, 'scripts/astro-check.mjs'], background: true },
  { name: 'node tests', after: ['build'], command: [node, 'scripts/node-tests.ts'], background: true },
  { name: 'e2e builds', after: ['build'], command: e2eBuilt ? [] : [node, 'e2e/prepare.ts', e2eDir] },
  // Every browser spec, the `site dev` ones (e2e/dev.spec.ts, one worker in order) among the others:
  // none is timed, so none needs the machine to itself.
  {
    name: 'playwright',
    after: ['e2e builds'],
    command: [bin('playwright'), 'test'],
    env: e2eEnv,
  },
];

type Result = 'ok' | 'failed' | 'skipped' | 'reused';
interface Done {
  result: Result;
  start: number; // s since the start of the run
  seconds: number;
}

// No step may run longer than this (s): past it the step is stopped, with the processes it still
// had named (CODELABGEN_STEP_DEADLINE_S; the Node tests have their own, shorter deadline).
const STEP_DEADLINE_S = Number(process.env.CODELABGEN_STEP_DEADLINE_S ?? 1800);

const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;
const done = new Map<string, Done>();
const running = new Map<string, ChildProcess>();

function runStep(step: Step): Promise<void> {
  const start = elapsed();
  if (step.command.length === 0) {
    done.set(step.name, { result: 'reused', start, seconds: 0 });
    return Promise.resolve();
  }
  process.stdout.write(
    `test-all: [${start.toFixed(1)} s] ${step.name}: ` +
      `${step.command.map((part) => (part === node ? 'node' : path.isAbsolute(part) && part.startsWith(REPO) ? path.relative(REPO, part) : part)).join(' ')}` +
      `\n`,
  );
  let output = '';
  const child = spawn(step.command[0]!, step.command.slice(1), {
    cwd: REPO,
    env: { ...process.env, ...step.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // a process group of its own: whatever it leaves running is found and stopped
  });
  running.set(step.name, child);
  const deadline = setTimeout(() => {
    const members = child.pid === undefined ? [] : groupMembers(child.pid);
    output += `\ntest-all: ${step.name} still running after the ${STEP_DEADLINE_S} s deadline, stopped:\n`;
    for (const member of members) output += `  ${member.pid} ${member.command}\n`;
    killAll(members);
  }, STEP_DEADLINE_S * 1000);
  // Set before the child starts its own processes (they inherit it). The e2e builds and the browser
  // tests keep the normal priority: they wait for pages most of the time, and when they do need the
  // CPU they get it at once, so that they are not the last thing running while a core idles.
  if (step.background && child.pid !== undefined) {
    try {
      setPriority(child.pid, 10);
    } catch {
      // Not permitted here: the step runs at normal priority, only slower overall.
    }
  }
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) => {
    const finish = (result: Result, note = '') => {
      clearTimeout(deadline);
      running.delete(step.name);
      // What the step's processes started and left behind (a server, a browser) ends with it.
      const leftover = child.pid === undefined ? [] : groupMembers(child.pid);
      if (leftover.length > 0) {
        output += `\ntest-all: ${step.name} left ${leftover.length} process(es) running, killed:\n`;
        for (const member of leftover) output += `  ${member.pid} ${member.command}\n`;
        killAll(leftover);
      }
      const seconds = elapsed() - start;
      done.set(step.name, { result, start, seconds });
      process.stdout.write(
        `\n──── ${step.name}: ${result} in ${seconds.toFixed(1)} s${note} ────\n${output}${output.endsWith('\n') || output === '' ? '' : '\n'}`,
      );
      resolve();
    };
    child.on('error', (error) => finish('failed', ` (${error.message})`));
    child.on('close', (code, signal) =>
      finish(code === 0 ? 'ok' : 'failed', code === 0 ? '' : ` (exit ${code ?? signal})`),
    );
  });
}

/** Starts every step whose prerequisites have ended, skips those whose prerequisites failed. */
async function runAll(): Promise<void> {
  const pending = new Map<string, Promise<void>>();
  for (;;) {
    for (const step of STEPS) {
      if (done.has(step.name) || pending.has(step.name)) continue;
      const before = step.after.map((name) => done.get(name)?.result);
      if (before.some((result) => result === 'failed' || result === 'skipped'))
        done.set(step.name, { result: 'skipped', start: elapsed(), seconds: 0 });
      else if (before.every((result) => result === 'ok' || result === 'reused'))
        pending.set(
          step.name,
          runStep(step).then(() => void pending.delete(step.name)),
        );
    }
    if (pending.size === 0) return;
    await Promise.race(pending.values());
  }
}

function summary(): string {
  const rows = STEPS.map((step) => {
    const { result, start, seconds } = done.get(step.name) ?? { result: 'skipped', start: 0, seconds: 0 };
    return `  ${step.name.padEnd(16)} ${`${start.toFixed(1)} s`.padStart(8)} ${`${seconds.toFixed(1)} s`.padStart(8)}  ${result}`;
  });
  return [
    `npm test steps (${elapsed().toFixed(1)} s in all; steps overlap):`,
    `  ${'step'.padEnd(16)} ${'start'.padStart(8)} ${'time'.padStart(8)}  result`,
    ...rows,
  ].join('\n');
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running.values()) if (child.pid !== undefined) killAll(groupMembers(child.pid));
    if (ownE2eDir) rmSync(e2eDir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

await runAll();
if (ownE2eDir) rmSync(e2eDir, { recursive: true, force: true });
process.stdout.write(`\n${summary()}\n`);
if (process.env.CODELABGEN_TEST_TIMINGS) {
  appendFileSync(
    process.env.CODELABGEN_TEST_TIMINGS,
    STEPS.map((step) => {
      const { result, start, seconds } = done.get(step.name)!;
      return `${step.name}\t${start.toFixed(1)}\t${seconds.toFixed(1)}\t${result}\n`;
    }).join(''),
  );
}
process.exitCode = [...done.values()].every((step) => step.result === 'ok' || step.result === 'reused') ? 0 : 1;
