// The timeline of a test run (scripts/node-tests.ts with CODELABGEN_TEST_TIMELINE=FILE; docs/testing.md,
// "Where the cores go"): each test file's start, end and CPU, and the machine's busy cores and load
// average sampled every second from /proc, written as JSON to FILE and summed up as text: the cores
// used over time, the stretches where a core idled and what ran then, the files that mostly wait.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';

/** One test file's process: seconds since the run started, and its CPU (s) with its children's. */
export interface FileSpan {
  file: string;
  start: number;
  end: number;
  /** User + system CPU of the file's process and of the children it waited for; absent when unknown. */
  cpu?: number;
}
/**
 * The machine, once a second: busy cores (of `cores`) since the sample before, the cores the run's
 * own processes used (`ours`: the runner and every process under it; on a shared machine the rest is
 * other work), and the 1-minute load average.
 */
export interface Sample {
  t: number;
  busy: number;
  ours?: number;
  /** The cores of the runner's parent and every process under it: under npm test, all its steps (scripts/test-all.ts). */
  run?: number;
  load: number;
}
export interface Timeline {
  cores: number;
  concurrency: number;
  files: FileSpan[];
  samples: Sample[];
}

/** Busy and total jiffies of the machine (all cores) from /proc/stat's first line; null off Linux. */
function cpuJiffies(): { busy: number; total: number; cores: number } | null {
  try {
    const text = readFileSync('/proc/stat', 'utf8');
    const fields = text.split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice: guest time is already in user.
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = fields[3]! + fields[4]!;
    const cores = text.split('\n').filter((line) => /^cpu\d+ /.test(line)).length;
    return { busy: total - idle, total, cores };
  } catch {
    return null;
  }
}

function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU (jiffies) of the process `root` and every live process under it, with the children each has
 * reaped: a process that ends moves its CPU into its parent's, so the sum only grows (but for a
 * process that leaves the tree, as a detached one whose parent ended).
 */
export function treeJiffies(...roots: number[]): number[] {
  const parent = new Map<number, number>();
  const own = new Map<number, number>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return roots.map(() => 0);
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      own.set(Number(name), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
    } catch {
      // Gone meanwhile.
    }
  }
  const inTree = (pid: number, root: number): boolean => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; hops++) {
      if (at === root) return true;
      at = parent.get(at);
    }
    return false;
  };
  return roots.map((root) => {
    let sum = 0;
    for (const [pid, jiffies] of own) if (inTree(pid, root)) sum += jiffies;
    return sum;
  });
}

/** Samples the machine every second from now on; `stop()` ends it and returns the samples. */
export function sampleCores(origin: number): { cores: number; stop: () => Sample[] } {
  const samples: Sample[] = [];
  let last = cpuJiffies();
  let [lastOurs, lastRun] = treeJiffies(process.pid, process.ppid);
  const cores = last?.cores ?? 0;
  const timer = setInterval(() => {
    const now = cpuJiffies();
    if (now === null || last === null || now.total === last.total) return;
    const [ours, run] = treeJiffies(process.pid, process.ppid);
    const perCore = (now.total - last.total) / cores; // jiffies one core had since the last sample
    samples.push({
      t: Math.round((Date.now() - origin) / 100) / 10,
      busy: Math.round(((now.busy - last.busy) / (now.total - last.total)) * cores * 100) / 100,
      ours: Math.round((Math.max(0, ours! - lastOurs!) / perCore) * 100) / 100,
      run: Math.round((Math.max(0, run! - lastRun!) / perCore) * 100) / 100,
      load: loadAverage(),
    });
    last = now;
    lastOurs = ours;
    lastRun = run;
  }, 1000);
  timer.unref();
  return {
    cores,
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

/**
 * Source of a preload (`--import`) for each test file's process: at its exit it appends one JSON line
 * to `spool`: its script, start and end (epoch ms) and CPU (s) from /proc/self/stat, its own and that
 * of the children it waited for (the CLI runs and site workers of its tests; not a process that
 * outlives it). Forked children get the preload too (fork() passes execArgv on): the runner keeps only
 * the lines of its test files.
 */
export function cpuPreload(spool: string): string {
  return `import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
process.on('exit', () => {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const cpu = (fields[11] + fields[12] + fields[13] + fields[14]) / 100;
    const line = { script: process.argv[1], start: performance.timeOrigin, end: Date.now(), cpu };
    appendFileSync(${JSON.stringify(spool)}, JSON.stringify(line) + '\\n');
  } catch {}
});`;
}

/** The spans the preload wrote for `files` (absolute path → the name to report), seconds since `origin`. */
export function readSpool(spool: string, files: Map<string, string>, origin: number): FileSpan[] {
  let text = '';
  try {
    text = readFileSync(spool, 'utf8');
  } catch {
    return [];
  }
  const spans: FileSpan[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line) as { script: string; start: number; end: number; cpu: number };
    const file = files.get(entry.script);
    if (file === undefined) continue;
    spans.push({
      file,
      start: Math.round(entry.start - origin) / 1000,
      end: Math.round(entry.end - origin) / 1000,
      cpu: entry.cpu,
    });
  }
  return spans;
}

export function writeTimeline(file: string, timeline: Timeline): void {
  appendFileSync(file, '', { flag: 'w' });
  appendFileSync(file, `${JSON.stringify(timeline, null, 1)}\n`);
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

/**
 * The timeline as text: busy cores and the files running per 10 s, the stretches of 5 s or more in
 * which at least half a core idled (and the files running then), and each file's CPU over its wall
 * time, lowest first (the files that mostly wait: beyond the cores, more such files at once cost no
 * CPU), plus the files still running once fewer than `concurrency` ran (the tail).
 */
export function summarize(timeline: Timeline): string[] {
  const { cores, files, samples } = timeline;
  const runningIn = (from: number, to: number) => files.filter((span) => span.start < to && span.end > from);
  const lines: string[] = [];
  const end = Math.max(0, ...files.map((span) => span.end), ...samples.map((sample) => sample.t));
  lines.push(
    `timeline: ${files.length} files, ${fixed(end)} s, ${cores} cores; per 10 s: busy cores, the tests' own, the parent's (npm test's), load, files running`,
  );
  for (let from = 0; from < end; from += 10) {
    const window = samples.filter((sample) => sample.t > from && sample.t <= from + 10);
    const mean = (value: (sample: Sample) => number) =>
      window.length === 0 ? 0 : window.reduce((sum, sample) => sum + value(sample), 0) / window.length;
    const busy = mean((sample) => sample.busy);
    const ours = mean((sample) => sample.ours ?? Number.NaN);
    const run = mean((sample) => sample.run ?? Number.NaN);
    const load = window.length === 0 ? Number.NaN : window[window.length - 1]!.load;
    const bar = '#'.repeat(Math.round(busy * 10)).padEnd(cores * 10, '.');
    lines.push(
      `  ${String(from).padStart(4)} s  ${fixed(busy, 2)} ${bar}  ours ${fixed(ours, 2)} run ${fixed(run, 2)}  load ${fixed(load).padStart(5)}  ` +
        `${runningIn(from, from + 10).length} files`,
    );
  }
  const idle: Array<{ from: number; to: number; busy: number[] }> = [];
  for (const sample of samples) {
    const last = idle[idle.length - 1];
    if (sample.busy > cores - 0.5) continue;
    if (last !== undefined && last.to >= sample.t - 1.5) {
      last.to = sample.t;
      last.busy.push(sample.busy);
    } else idle.push({ from: sample.t - 1, to: sample.t, busy: [sample.busy] });
  }
  const long = idle.filter((stretch) => stretch.to - stretch.from >= 5);
  const idleSeconds = long.reduce((sum, stretch) => sum + stretch.to - stretch.from, 0);
  lines.push(
    `idle stretches (>= 5 s with under ${fixed(cores - 0.5)} cores busy): ${long.length}, ${fixed(idleSeconds)} s`,
  );
  for (const stretch of long) {
    const mean = stretch.busy.reduce((sum, value) => sum + value, 0) / stretch.busy.length;
    const names = [
      ...new Set(files.filter((span) => span.start < stretch.to && span.end > stretch.from).map((span) => span.file)),
    ];
    lines.push(
      `  ${fixed(stretch.from)}-${fixed(stretch.to)} s, ${fixed(mean, 2)} busy: ${names.join(', ') || '(no test file)'}`,
    );
  }
  // Core-seconds: each sample's cores over the time since the sample before (a sample can come late on a busy machine).
  const coreSeconds = (value: (sample: Sample) => number) =>
    samples.reduce(
      (sum, sample, i) => sum + value(sample) * (sample.t - (i === 0 ? sample.t - 1 : samples[i - 1]!.t)),
      0,
    );
  const cpuAll = coreSeconds((sample) => sample.busy);
  const span = samples.length === 0 ? 0 : samples[samples.length - 1]!.t - samples[0]!.t + 1;
  const oursAll = coreSeconds((sample) => sample.ours ?? Number.NaN);
  const runAll = coreSeconds((sample) => sample.run ?? Number.NaN);
  if (samples.length > 0)
    lines.push(
      `cores busy on average: ${fixed(cpuAll / span, 2)} of ${cores} (${fixed(cpuAll)} core-s), ` +
        `the tests' own ${fixed(oursAll / span, 2)} (${fixed(oursAll)} core-s), ` +
        `the parent's ${fixed(runAll / span, 2)} (${fixed(runAll)} core-s)`,
    );
  const starts = files.map((span) => span.start).sort((a, b) => a - b);
  const lastStart = starts[starts.length - 1] ?? 0;
  const tail = files.filter((span) => span.end > lastStart).sort((a, b) => b.end - a.end);
  lines.push(`after the last file started (${fixed(lastStart)} s): ${tail.length} files still ran, ending at`);
  for (const span of tail)
    lines.push(
      `  ${fixed(span.end).padStart(6)} s  ${span.file} (from ${fixed(span.start)} s, ${fixed(span.cpu ?? Number.NaN)} s CPU)`,
    );
  const waiting = files
    .filter((span) => span.cpu !== undefined && span.end - span.start >= 5)
    .map((span) => ({ ...span, share: span.cpu! / (span.end - span.start) }))
    .sort((a, b) => a.share - b.share);
  lines.push('files of 5 s or more by CPU / wall, lowest first (the ones that mostly wait):');
  for (const span of waiting)
    lines.push(
      `  ${fixed(span.share, 2)}  ${fixed(span.end - span.start).padStart(6)} s wall ${fixed(span.cpu!).padStart(5)} s CPU  ${span.file}`,
    );
  return lines;
}
