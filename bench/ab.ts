// Interleaved A/B of the state commands' start-up: two or more builds of codelabgen (folders holding
// bin/codelabgen.cjs and a built dist/), each on its own copy of one 10-lesson course, run round by
// round with `node -e 0`, so a busy machine's load hits every build alike. Each call runs under
// `perf stat`, which gives its CPU time (task-clock) and wall time (duration_time). Prints the medians
// and the ratios to `node -e 0` of the same rounds, with the load average at start and end.
// Usage: node bench/ab.ts [--rounds N] [--json] NAME=DIR NAME=DIR...   (round 0 warms up, not counted)
// Build an older commit beside this one first: git archive REV | tar -x -C DIR, link node_modules in,
// node scripts/build.mjs there (docs/performance.md, "Reproduce").
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { buildStateCourse } from './state-course.ts';
import { quantile, round } from './stats.ts';

const USAGE = 'usage: node bench/ab.ts [--rounds N] [--json] NAME=DIR NAME=DIR...\n';

interface Build {
  name: string;
  cli: string;
  course: string;
  stage: 'pending' | 'spec';
}

interface Sample {
  cpu: number; // ms of CPU (task-clock)
  wall: number; // ms
}

const COMMANDS: Array<[string, (build: Build) => string[]]> = [
  ['state show --json', (b) => ['state', 'show', '--json', '--course', b.course]],
  ['state next', (b) => ['state', 'next', '--course', b.course]],
  ['state log', (b) => ['state', 'log', 'bench', '--data', 'k=v', '--course', b.course]],
  [
    'state set',
    (b) => {
      b.stage = b.stage === 'pending' ? 'spec' : 'pending';
      return ['state', 'set', '1.1', b.stage, '--note', 'bench', '--course', b.course];
    },
  ],
];

function parse(argv: string[]): { rounds: number; json: boolean; builds: Array<[string, string]> } {
  let rounds = 21;
  let json = false;
  const builds: Array<[string, string]> = [];
  for (let at = 0; at < argv.length; at += 1) {
    const arg = argv[at]!;
    if (arg === '--rounds') rounds = Number(argv[++at]);
    else if (arg === '--json') json = true;
    else if (/^[\w.-]+=/.test(arg))
      builds.push([arg.slice(0, arg.indexOf('=')), path.resolve(arg.slice(arg.indexOf('=') + 1))]);
    else fail(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(rounds) || rounds < 1) fail('--rounds takes a whole number of at least 1');
  if (builds.length === 0) fail('name at least one build: NAME=DIR (a folder with bin/codelabgen.cjs and dist/)');
  return { rounds, json, builds };
}

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n${USAGE}`);
  process.exit(2);
}

/** One call under perf stat: its CPU and wall time. */
function measure(scratch: string, argv: string[]): Sample {
  const out = path.join(scratch, 'perf.txt');
  const result = spawnSync(
    'perf',
    ['stat', '-x,', '-e', 'task-clock,duration_time', '-o', out, '--', process.execPath, ...argv],
    { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' },
  );
  if (result.error) fail(`perf stat did not run (${result.error.message}): install perf (linux-perf)`);
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  const text = readFileSync(out, 'utf8');
  const value = (event: string) => Number(new RegExp(`^([\\d.]+),[^,]*,${event},`, 'm').exec(text)?.[1]);
  return { cpu: value('task-clock'), wall: value('duration_time') / 1e6 };
}

const { rounds, json, builds: named } = parse(process.argv.slice(2));
const scratch = mkdtempSync(path.join(tmpdir(), 'codelabgen-ab-'));
try {
  const template = path.join(scratch, 'course');
  buildStateCourse(template, { lessons: 10, specs: true });
  const builds: Build[] = named.map(([name, dir], at) => {
    const course = path.join(scratch, `course-${at}`);
    cpSync(template, course, { recursive: true });
    return { name, cli: path.join(dir, 'bin', 'codelabgen.cjs'), course, stage: 'pending' };
  });
  const samples = new Map<string, Sample[]>();
  const add = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample]);
  const loadAtStart = loadavg();
  for (let r = 0; r <= rounds; r += 1) {
    const node = measure(scratch, ['-e', '0']);
    if (r > 0) add('node -e 0', node);
    for (const [command, args] of COMMANDS)
      for (const build of builds) {
        const sample = measure(scratch, [build.cli, ...args(build)]);
        if (r > 0) add(`${build.name}\t${command}`, sample); // round 0 fills the code caches and page cache
      }
  }
  const median = (key: string, of: keyof Sample) =>
    quantile(
      samples.get(key)!.map((s) => s[of]),
      0.5,
    );
  const nodeCpu = median('node -e 0', 'cpu');
  const nodeWall = median('node -e 0', 'wall');
  const rows = [...samples.keys()]
    .filter((key) => key !== 'node -e 0')
    .map((key) => {
      const [build, command] = key.split('\t') as [string, string];
      const cpu = median(key, 'cpu');
      const wall = median(key, 'wall');
      return {
        build,
        command,
        cpu_ms: round(cpu),
        cpu_vs_node: round(cpu / nodeCpu, 2),
        wall_ms: round(wall),
        wall_vs_node: round(wall / nodeWall, 2),
      };
    });
  const report = {
    rounds,
    cpus: cpus().length,
    load_average_at_start: loadAtStart.map((v) => round(v, 2)),
    load_average_at_end: loadavg().map((v) => round(v, 2)),
    node: { cpu_ms: round(nodeCpu), wall_ms: round(nodeWall) },
    rows,
  };
  if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const lines = [
      `${rounds} rounds; load average ${report.load_average_at_start.join(' ')} at start, ` +
        `${report.load_average_at_end.join(' ')} at end (1, 5, 15 min) on ${report.cpus} CPUs`,
      `node -e 0: CPU ${report.node.cpu_ms} ms, wall ${report.node.wall_ms} ms (medians)`,
      'build\tcommand\tCPU ms\tCPU × node\twall ms\twall × node',
      ...rows.map((row) =>
        [row.build, row.command, row.cpu_ms, row.cpu_vs_node, row.wall_ms, row.wall_vs_node].join('\t'),
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
