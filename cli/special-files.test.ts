// A worker can leave a named pipe where a doc, a review or a manifest belongs. Opening a FIFO for
// reading blocks until a writer comes, and a process blocked there cannot even run its SIGTERM
// handler: every read of a course file goes through readTextFile / readRegularFile
// (content-schemas/regular-file.ts), which opens without blocking and refuses anything but a regular
// file. Each command here must end on its own, naming the file; a hang is killed after 30 s and fails.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { generateCourse } from '../bench/generate-course.ts';
import { cliAsync, removeDir, tempDir, type CliResult } from './testing.ts';

const work = tempDir('codelabgen-special-files-');
const root = path.join(work, 'course');
let dirs: string[] = [];
after(() => removeDir(work));
before(async () => {
  // 1.1 done, 1.2 at notes (its review is next), 1.3 at code (its verification is next).
  ({ dirs } = await generateCourse(root, {
    lessons: 3,
    stageOf: (i) => (['done', 'notes', 'code'] as const)[i]!,
    diagram: () => null,
  }));
});

/** Replaces a file with a named pipe nobody writes to. */
function pipeAt(rel: string): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  rmSync(file, { force: true });
  execFileSync('mkfifo', [file]);
}

async function run(args: string[]): Promise<CliResult> {
  const { child, done } = cliAsync(args, { cwd: root });
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000); // a hang guard, as long as cli()'s (cli/testing.ts)
  const result = await done;
  clearTimeout(timer);
  assert.notEqual(result.signal, 'SIGKILL', `codelabgen ${args.join(' ')} hung on a named pipe`);
  return result;
}

test('check ends, naming a lesson doc that is a named pipe', async () => {
  pipeAt(`${dirs[0]}/docs/notes.md`);
  const result = await run(['check']);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, new RegExp(`${dirs[0]}/docs/notes\\.md: is a named pipe \\(FIFO\\), not a regular file`));
});

test('moving a lesson to reviewed refuses a review.md that is a named pipe', async () => {
  pipeAt('.codelabgen/lessons/1.2/review.md');
  const result = await run(['state', 'set', '1.2', 'reviewed']);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /\.codelabgen\/lessons\/1\.2\/review\.md: is a named pipe \(FIFO\), not a regular file/);
});

test('verify picks its command past a package.json that is a named pipe; the blocked test run times out', async () => {
  pipeAt(`${dirs[2]}/package.json`);
  // node --test in the lesson blocks on the pipe itself (Node reads package.json for "type"): the timeout ends it.
  const result = await run(['verify', '1.3', '--json', '--timeout', '3']);
  assert.equal(result.code, 1, result.stderr);
  const run1 = JSON.parse(result.stdout) as { passed: boolean; timed_out: boolean; argv: string[] };
  assert.deepEqual([run1.passed, run1.timed_out, run1.argv.slice(1)], [false, true, ['--test']]);
});

test('status check refuses a worker status FILE that is a named pipe, naming it', async () => {
  pipeAt('status.txt');
  const result = await run(['status', 'check', 'status.txt']);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stderr, 'error: cannot read status.txt: is a named pipe (FIFO), not a regular file\n');
});
