// One sandbox for every step a lesson controls, by construction: no module of the product spawns a
// program except those listed here (none of which runs a lesson's program), and the process runner
// that does run lesson programs (run-tests.ts) is called from lesson-step.ts's runLessonStep() only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The folders whose code ships (scripts/, bench/ and e2e/ are the developers' tools). */
const SHIPPED = ['content-schemas', 'pipeline', 'cli', 'site'];

/** Each module that may start a process, and why what it starts is never a lesson's program. */
const MAY_SPAWN: Record<string, string> = {
  'pipeline/verify/run-tests.ts': 'the process runner of lesson steps; only runLessonStep() calls it (checked below)',
  'pipeline/verify/sandbox.ts': 'probes bwrap itself with /bin/true, once per process',
  'pipeline/verify/process-limit.ts':
    "tries once that `sh -c 'echo 0 > cgroup.procs'` can enter the pids cgroup it made (a fixed argv, no lesson program)",
  'pipeline/verify/sandbox-network.ts':
    "starts slirp4netns, the network of a sandbox with network: true (the machine's program)",
  'pipeline/site/diagram-parse.ts': "spawns codelabgen's own diagram parser (mermaid parses; no lesson code runs)",
  'pipeline/progress/notify.ts':
    "spawns notify.command from config.yaml: the course owner's notifier, not a lesson program",
  'pipeline/read/git-history.ts': 'git rev-parse in the course (a fixed argv, the machine’s git)',
  'site/lib/lessons.ts': 'git log for a lesson’s last change (a fixed argv, the machine’s git)',
  'pipeline/site/worker-fork.ts': "forks codelabgen's own Astro build worker",
  'cli/mcp/invoke.ts': "spawns codelabgen's own CLI for a tool call (verify then runs lessons through runLessonStep)",
  'cli/testing.ts': 'test helper: spawns the built CLI',
  'cli/hostile-trees.ts': 'test helper: mkfifo and python3 plant FIFOs and sockets in a copy of a course',
  'cli/hostile-site-dev.ts': "test helper: spawns the built CLI's site dev on a hostile course",
  'cli/package-fixture.ts': 'test helper: packs and installs the package',
};

/** `import ... from 'node:child_process'`, `import('child_process')`, `require('node:child_process')`. */
const SPAWNS = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](?:node:)?child_process['"]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return /\.(ts|mts|cts|js|mjs|cjs|astro)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [relative] : [];
  });
}

const files = SHIPPED.flatMap(sourceFiles);
const text = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

test('no shipped module spawns a process except the listed ones (a lesson step spawned anywhere else fails here)', () => {
  const spawning = files.filter((file) => SPAWNS.test(text(file)));
  assert.deepEqual(
    spawning.filter((file) => !(file in MAY_SPAWN)),
    [],
    'a module outside the list starts processes: run a lesson program through runLessonStep() ' +
      '(pipeline/verify/lesson-step.ts), or add the module to MAY_SPAWN saying why what it runs is not the ' +
      'lesson’s',
  );
  assert.deepEqual(
    Object.keys(MAY_SPAWN).filter((file) => !spawning.includes(file)),
    [],
    'listed but spawns nothing: remove it from MAY_SPAWN',
  );
});

test("run-tests.ts's runner is called from runLessonStep() only, once", () => {
  const callers = files.filter((file) => file !== 'pipeline/verify/run-tests.ts' && /\brunTests\b/.test(text(file)));
  assert.deepEqual(callers, ['pipeline/verify/lesson-step.ts']);
  const stepModule = text('pipeline/verify/lesson-step.ts');
  assert.equal(stepModule.match(/\brunTests\(/g)?.length, 1);
  assert.match(stepModule, /export async function runLessonStep\(/);
});

test('the scan sees every way of loading child_process', () => {
  for (const line of [
    "import { spawn } from 'node:child_process';",
    'import cp from "child_process";',
    "const { execFile } = await import('node:child_process');",
    "const cp = require('child_process');",
  ])
    assert.match(line, SPAWNS, line);
  assert.doesNotMatch('// modules (child_process, perf_hooks) load lazily', SPAWNS);
});
