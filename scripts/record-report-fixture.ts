// Records pipeline/report/test-fixtures/report-course/: drives the built CLI once through every unhappy
// path the report must tell (failing verifies and a fix-budget block, review reworks, a refused
// third and a round the user granted, user blocks, a lesson changed after a dependent was done,
// failed and needs-user tasks, phase tasks, heartbeats, a --reopen) and keeps events.jsonl with
// the report.md and report.json `codelabgen report` wrote from it.
// Run: node scripts/build.mjs && node scripts/record-report-fixture.ts (then review the diff).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'pipeline', 'report', 'test-fixtures', 'report-course');
const CLI = path.join(REPO, 'bin', 'codelabgen.cjs');
const scratch = mkdtempSync(path.join(tmpdir(), 'codelabgen-report-fixture-'));
const root = path.join(scratch, 'course');

const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
delete env.CODELABGEN_COURSE;

function run(args: string[], expect = 0, input?: string): string {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: args[0] === 'init' ? scratch : root,
    encoding: 'utf8',
    input,
    env,
  });
  if (result.status !== expect)
    throw new Error(
      `codelabgen ${args.join(' ')}: exit ${result.status}, expected ${expect}\n${result.stdout}${result.stderr}`,
    );
  return result.stdout;
}

function write(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

const CURRICULUM = `title: Streams, the hard way
modules:
  - id: "1"
    slug: basics
    title: Basics
    lessons:
      - { id: "1.1", slug: lines, title: Splitting lines }
      - { id: "1.2", slug: words, title: Counting words, prerequisites: ["1.1"] }
  - id: "2"
    slug: data
    title: Data
    lessons:
      - { id: "2.1", slug: csv, title: Reading CSV }
      - { id: "2.2", slug: dataset, title: A real dataset }
`;
const DIRS: Record<string, string> = {
  '1.1': '1-basics/1.1-lines',
  '1.2': '1-basics/1.2-words',
  '2.1': '2-data/2.1-csv',
  '2.2': '2-data/2.2-dataset',
};

const CODE: Record<string, [string, string]> = {
  '1.1': [
    "export const lines = (text) => text.split('\\n');\n",
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { lines } from " +
      "'./main.mjs';\ntest('splits on newlines', () => assert.deepEqual(lines('a\\nb'), ['a', 'b']));\n",
  ],
  '1.2': [
    "import { lines } from '../1.1-lines/main.mjs';\nexport const words = (text) => lines(text).join(' ').split(/\\s+/).filter(Boolean).length;\n",
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { words } from " +
      "'./main.mjs';\ntest('counts one word', () => assert.equal(words('a'), 1));\ntest('counts words across " +
      "lines', () => assert.equal(words('a b\\n\\nc'), 3));\n",
  ],
  '2.2': [
    'export const total = (counts) => counts.reduce((sum, count) => sum + count, 0);\n',
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { total } from " +
      "'./main.mjs';\ntest('adds the counts', () => assert.equal(total([3, 4]), 7));\n",
  ],
  '2.1': [
    "export const cells = (row) => row.split(',');\n",
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { cells } from " +
      "'./main.mjs';\ntest('splits cells', () => assert.deepEqual(cells('a,b'), ['a', 'b']));\ntest('keeps empty " +
      "cells', () => assert.deepEqual(cells('a,,b'), ['a', '', 'b']));\n",
  ],
};

function artifact(id: string, stage: string): void {
  const dir = DIRS[id] as string;
  if (stage === 'spec')
    write(`.codelabgen/lessons/${id}/spec.yaml`, `lesson: "${id}"\ntitle: Lesson ${id}\ngoal: Show it.\n`);
  if (stage === 'code' && CODE[id]) [write(`${dir}/main.mjs`, CODE[id][0]), write(`${dir}/main.test.mjs`, CODE[id][1])];
  if (stage === 'readalong')
    write(`${dir}/docs/readalong.md`, '# Read along\n\nThe whole module:\n\n```js file=main.mjs lines=1-1\n```\n');
  if (stage === 'notes') write(`${dir}/docs/notes.md`, '# Notes\n\nWhat to remember.\n');
}

function review(id: string, verdict: 'pass' | 'revise', round: number, findings: string[]): void {
  const items = findings.map((finding) => `  - ${finding}\n`).join('');
  write(
    `.codelabgen/lessons/${id}/review.md`,
    `---\nlesson: "${id}"\nverdict: ${verdict}\nreviewer: lesson-reviewer\nround: ${round}\nfindings:${items ? `\n${items}` : ' []\n'}---\nRound ${round}.\n`,
  );
}

type TaskEnd = { fail?: string; status?: 'ok' | 'needs-user'; stage?: string; notes?: string; heartbeat?: boolean };

/** One worker task: start, the work (a heartbeat first if asked), then done or failed with its note and worker status. */
function task(id: string, role: string, work: () => void, end: TaskEnd = {}): void {
  const taskId = run(['state', 'task', 'start', id, '--role', role]).trim().split(/\s+/)[0] as string;
  if (end.heartbeat) run(['state', 'task', 'heartbeat', taskId]);
  work();
  if (end.fail) return void run(['state', 'task', 'fail', taskId, '--note', end.fail]);
  const result = JSON.stringify({
    lesson: id,
    status: end.status ?? 'ok',
    stage: end.stage ?? 'spec',
    artifacts: [],
    ...(end.notes ? { notes: end.notes } : {}),
  });
  run(['state', 'task', 'done', taskId, '--result', '-'], 0, result);
}

/** One phase task (`state task start --phase`) with a heartbeat; done with a note, or failed. */
function phaseTask(phase: string, role: string, end: { done?: string; fail?: string }): void {
  const taskId = run(['state', 'task', 'start', '--phase', phase, '--role', role]).trim().split(/\s+/)[0] as string;
  run(['state', 'task', 'heartbeat', taskId]);
  if (end.fail) run(['state', 'task', 'fail', taskId, '--note', end.fail]);
  else run(['state', 'task', 'done', taskId, '--note', end.done ?? 'done']);
}

const ROLE: Record<string, string> = {
  spec: 'example-designer',
  code: 'code-author',
  readalong: 'readalong-writer',
  notes: 'notes-writer',
  reviewed: 'lesson-reviewer',
};

/** Moves a lesson forward to `target`, one worker task per stage, verifying for real at code. */
function forward(id: string, from: string, target: string): void {
  const stages = ['pending', 'spec', 'code', 'verified', 'readalong', 'notes', 'reviewed', 'done'];
  for (const stage of stages.slice(stages.indexOf(from) + 1, stages.indexOf(target) + 1)) {
    if (stage === 'verified') run(['verify', id, '--update-state']);
    else if (stage === 'done') run(['state', 'set', id, 'done']);
    else
      task(id, ROLE[stage] as string, () => (stage === 'reviewed' ? undefined : artifact(id, stage)), { stage }),
        run(['state', 'set', id, stage]);
    if (stage === 'notes' && target !== 'notes') review(id, 'pass', 1, []);
  }
}

run(['init', 'course', '--title', 'Streams, the hard way']);
write('.codelabgen/config.yaml', 'schema_version: 1\nruntime: node\n');
write('.codelabgen/research/overview.md', '# Overview\n');
run(['state', 'phase', 'recon']);
phaseTask('recon', 'researcher', { done: 'overview written' });
run(['state', 'phase', 'sources']);
write(
  '.codelabgen/sources.jsonl',
  `${JSON.stringify({ id: 'node-docs', title: 'Node docs', url: 'https://nodejs.org/api/stream.html', kind: 'official-docs', status: 'accepted' })}\n`,
);
write('.codelabgen/sources/node-docs.md', '# Digest\n');
run(['state', 'phase', 'gate_sources']);
run(['state', 'phase', 'topics', '--approved']);
write(
  '.codelabgen/topics/node-docs.jsonl',
  `${JSON.stringify({ id: 'lines', source: 'node-docs', title: 'Lines', summary: 'Splitting text into lines.' })}\n`,
);
run(['state', 'phase', 'curriculum']);
phaseTask('curriculum', 'curriculum-designer', { done: 'two modules, four lessons' });
write('.codelabgen/curriculum.yaml', CURRICULUM);
write('.codelabgen/plan.md', '# Plan\n');
run(['state', 'phase', 'gate_plan']);
run(['state', 'phase', 'scaffold', '--approved']);
run(['register']);
run(['state', 'phase', 'lessons']);

// 2.1 and 1.1 go smoothly.
forward('2.1', 'pending', 'done');
forward('1.1', 'pending', 'done');

// 1.2: a bug that survives two fixes; the third failing verify uses up the fix budget.
forward('1.2', 'pending', 'spec');
task(
  '1.2',
  'code-author',
  () => [
    artifact('1.2', 'code'),
    write(
      `${DIRS['1.2']}/main.mjs`,
      "import { lines } from '../1.1-lines/main.mjs';\nexport const words = (text) => lines(text).join(' ').split(' ').length;\n",
    ),
  ],
  { stage: 'code' },
);
run(['state', 'set', '1.2', 'code']);
run(['verify', '1.2', '--update-state'], 1);
run(['state', 'fail', '1.2', '--note', 'counts words across lines fails']); // already counted by verify: the note joins that failure, no second count
task(
  '1.2',
  'code-fixer',
  () =>
    write(
      `${DIRS['1.2']}/main.mjs`,
      "import { lines } from '../1.1-lines/main.mjs';\nexport const words = (text) => lines(text).join(' " +
        "').split(' ').filter((word) => word !== ' ').length;\n",
    ),
  { stage: 'code', heartbeat: true },
);
run(['verify', '1.2'], 1); // the fixer's own read-only run: no verdict, counted in the report by its run number
run(['verify', '1.2', '--update-state'], 1);
task('1.2', 'code-fixer', () => undefined, { fail: 'could not tell whether blank lines count as words; gave up' });
run(['verify', '1.2', '--update-state'], 1);
run([
  'state',
  'log',
  'decision',
  '--lesson',
  '1.2',
  '--data',
  'by=user',
  '--data',
  'decision=blank lines are not words; split on whitespace',
]);
run(['state', 'unblock', '1.2']);
task('1.2', 'code-fixer', () => artifact('1.2', 'code'), { stage: 'code' });
run(['verify', '1.2', '--update-state']);
forward('1.2', 'verified', 'notes');

// Two review reworks, then a third is refused: the review rounds are used up; the user grants one more.
review('1.2', 'revise', 1, [
  '{ severity: major, where: docs/readalong.md, text: "Example 2 never shows the blank-line case." }',
]);
run(['state', 'set', '1.2', 'readalong', '--note', 'reviewer: example 2 never shows the blank-line case']);
task('1.2', 'readalong-writer', () => artifact('1.2', 'readalong'), { stage: 'readalong' });
run(['state', 'set', '1.2', 'notes']);
review('1.2', 'revise', 2, [
  '{ severity: minor, where: docs/notes.md, text: "Say why split(/\\\\s+/) needs filter(Boolean)." }',
  '{ severity: nit, text: "Title case in the heading." }',
]);
run(['state', 'set', '1.2', 'readalong', '--note', 'reviewer: notes should say why filter(Boolean) is needed']);
task('1.2', 'notes-writer', () => artifact('1.2', 'notes'), { stage: 'notes' });
run(['state', 'set', '1.2', 'notes']);
review('1.2', 'revise', 3, ['{ severity: nit, text: "Title case in the heading." }']);
run(['state', 'set', '1.2', 'readalong', '--note', 'reviewer: title case'], 2);
run([
  'state',
  'block',
  '1.2',
  '--reason',
  'review rounds used up (2 of 2); the last finding is a nit: accept or rework?',
]);
run(['state', 'unblock', '1.2', '--note', 'one more round: fix the title case', '--review-round']);
run(['state', 'set', '1.2', 'readalong', '--note', 'reviewer: title case']);
task('1.2', 'readalong-writer', () => artifact('1.2', 'readalong'), { stage: 'readalong' });
run(['state', 'set', '1.2', 'notes']);
review('1.2', 'pass', 4, []);
run(['state', 'set', '1.2', 'reviewed']);
run(['state', 'set', '1.2', 'done']);

// 2.2: the designer needs a decision only the user can make; the lesson stays blocked.
task('2.2', 'example-designer', () => undefined, {
  status: 'needs-user',
  stage: 'spec',
  notes: 'which dataset may the example use? the licence is unclear',
});
run(['state', 'block', '2.2', '--reason', 'which dataset may the example use? the licence is unclear']);

// 1.1 changes after 1.2, which builds on it, was done: 1.1 drifted; 1.2 is stale and redone from spec.
write(`${DIRS['1.1']}/main.mjs`, 'export const lines = (text) => text.split(/\\r?\\n/);\n');
run([
  'state',
  'set',
  '1.1',
  'code',
  '--note',
  'code changed after verification (drift): lines() now splits \\r\\n too',
]);
run(['verify', '1.1', '--update-state']);
forward('1.1', 'verified', 'done');
run(['state', 'stale', '1.2', '--reason', '1.1 changed after 1.2 was done: lines() splits \\r\\n now']);
run(['state', 'set', '1.2', 'spec', '--note', 'redo from spec: 1.1 changed under it']);
forward('1.2', 'spec', 'done');

// The user settles 2.2's dataset; every lesson is done and the course moves on to assembly.
run(['state', 'unblock', '2.2', '--note', "use the city's bike-counter data: CC0"]);
forward('2.2', 'pending', 'done');
run(['state', 'phase', 'assembly']);

// In assembly the dataset turns out not to be CC0: 2.2 is reopened (the course goes back to lessons) and blocked again.
phaseTask('assembly', 'site-assembler', { fail: "2.2's dataset page says CC BY-NC, not CC0" });
run(['state', 'set', '2.2', 'spec', '--note', 'the dataset is CC BY-NC after all: find another'], 2); // in assembly a move back needs --reopen
run(['state', 'set', '2.2', 'spec', '--note', 'the dataset is CC BY-NC after all: find another', '--reopen']);
run(['state', 'block', '2.2', '--reason', 'which dataset now? the bike-counter data is CC BY-NC']);

run(['state', 'log', 'slow-test', '--lesson', '1.2', '--data', 'seconds=2']);
run(['report']);
mkdirSync(OUT, { recursive: true });
for (const file of ['events.jsonl', 'report.md', 'report.json'])
  copyFileSync(path.join(root, '.codelabgen', file), path.join(OUT, file));
rmSync(scratch, { recursive: true, force: true });
console.log(`recorded ${OUT}`);
