// Where a state_log commit's time goes inside one long-lived process: every fs call the store makes
// is wrapped with a timer (by name), and whole commits are timed. Usage:
//   node bench/commit-profile.ts [commits] [lessons]
import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const totals = new Map<string, { n: number; ns: bigint }>();
const names = [
  'openSync',
  'closeSync',
  'fsyncSync',
  'writeSync',
  'writeFileSync',
  'readFileSync',
  'renameSync',
  'linkSync',
  'unlinkSync',
  'statSync',
  'lstatSync',
  'fstatSync',
  'readdirSync',
  'readSync',
  'ftruncateSync',
] as const;
for (const name of names) {
  const original = (fs as any)[name];
  (fs as any)[name] = function (...args: unknown[]) {
    const start = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      const entry = totals.get(name) ?? { n: 0, ns: 0n };
      entry.n += 1;
      entry.ns += process.hrtime.bigint() - start;
      totals.set(name, entry);
    }
  };
}
syncBuiltinESMExports();

const { buildStateCourse } = await import('./state-course.ts');
const { courseAt } = await import('../pipeline/index.ts');
const { commit, decideLog, parseLogRequest } = await import('../pipeline/state-commands.ts');

const commits = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-commit-profile-'));
try {
  const root = path.join(dir, 'course');
  buildStateCourse(root, { lessons: Number(process.argv[3] ?? 10) });
  const course = courseAt(root);
  for (let i = 0; i < 5; i += 1)
    await commit(course, { command: 'warm' }, (state) => decideLog(state, parseLogRequest('bench', [`i=${i}`], null)));
  totals.clear();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const each: number[] = [];
  for (let i = 0; i < commits; i += 1) {
    const s = process.hrtime.bigint();
    await commit(course, { command: 'codelabgen state log bench --data i=x --json' }, (state) =>
      decideLog(state, parseLogRequest('bench', [`i=${i}`], null)),
    );
    each.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  each.sort((a, b) => a - b);
  const perCommit = (ns: bigint) => (Number(ns) / 1e6 / commits).toFixed(3);
  console.log(
    `commits ${commits}: wall ${(wall / commits).toFixed(2)} ms/commit (median ` +
      `${each[Math.floor(commits / 2)]!.toFixed(2)}), CPU ` +
      `${((cpu.user + cpu.system) / 1000 / commits).toFixed(2)} ms/commit (user ` +
      `${(cpu.user / 1000 / commits).toFixed(2)}, sys ${(cpu.system / 1000 / commits).toFixed(2)})`,
  );
  let fsTotal = 0n;
  for (const [name, { n, ns }] of [...totals].sort((a, b) => Number(b[1].ns - a[1].ns))) {
    fsTotal += ns;
    console.log(
      `  ${name.padEnd(14)} ${(n / commits).toFixed(1).padStart(5)} calls  ${perCommit(ns).padStart(8)} ms/commit`,
    );
  }
  console.log(
    `  fs total       ${perCommit(fsTotal)} ms/commit; the rest (JS) ${(wall / commits - Number(fsTotal) / 1e6 / commits).toFixed(3)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
