// Test fixture (imported only by *.test.ts): a course driven through the phases with valid
// artifacts, lesson artifacts for each stage, and a simulated verification for tests that must
// not depend on the verify command.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// The modules themselves, not the entry files: through pipeline/index.ts and content-schemas/index.ts
// each test file that imports this fixture loaded the whole pipeline for three names (0.9 s of CPU
// to load this file, 0.3 s now).
import { PHASES, STAGES } from '../content-schemas/names.ts';
import { hashLessonCode } from '../pipeline/artifacts/code-hash.ts';
import {
  type CliResult,
  cli,
  initCourse,
  readState,
  sharedCopyOfCourse,
  sharedCourseTemplate,
  snapshot,
  tempDir,
} from './testing.ts';

/** The phases a walk moves through from init to lessons, in order. */
export const PHASES_TO_LESSONS: readonly string[] = PHASES.slice(1, PHASES.indexOf('lessons') + 1);

export const CURRICULUM = `title: Streams
modules:
  - id: "1"
    slug: basics
    title: Basics
    lessons:
      - { id: "1.1", slug: readable, title: Readable streams }
      - { id: "1.2", slug: writable, title: Writable streams, prerequisites: ["1.1"] }
  - id: "2"
    slug: advanced
    title: Advanced
    lessons:
      - { id: "2.1", slug: transform, title: Transform streams }
`;

export const LESSON_DIRS: Record<string, string> = {
  '1.1': '1-basics/1.1-readable',
  '1.2': '1-basics/1.2-writable',
  '2.1': '2-advanced/2.1-transform',
};

export function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

/** Runs the CLI in `root` and asserts exit 0; returns stdout. */
export function ok(root: string, ...args: string[]): string {
  const result = cli(args, { cwd: root });
  assert.equal(result.code, 0, `codelabgen ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** Runs a command that must be refused: exit 2, one `error:` line, and nothing changed. */
export function refused(root: string, args: string[], pattern?: RegExp, input?: string): CliResult {
  const before = snapshot(root);
  const result = cli(args, { cwd: root, input });
  assert.equal(result.code, 2, `expected a refusal of codelabgen ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  const errors = result.stderr.split('\n').filter((line) => line.startsWith('error: '));
  assert.equal(errors.length, 1, `one error: line expected, got:\n${result.stderr}`);
  assert.ok(result.stderr.startsWith('error: '), result.stderr);
  if (pattern) assert.match(errors[0] ?? '', pattern);
  assert.deepEqual(snapshot(root), before, 'a refused command changed files');
  return result;
}

export const ARTIFACTS_BY_PHASE: Record<string, (root: string) => void> = {
  recon: (root) => write(root, '.codelabgen/research/overview.md', '# Overview\n'),
  sources: (root) => {
    write(
      root,
      '.codelabgen/sources.jsonl',
      `${JSON.stringify({ id: 'node-docs', title: 'Node docs', url: 'https://nodejs.org/api/stream.html', kind: 'official-docs', status: 'accepted' })}\n`,
    );
    write(root, '.codelabgen/sources/node-docs.md', '# Digest\n');
  },
  topics: (root) =>
    write(
      root,
      '.codelabgen/topics/node-docs.jsonl',
      `${JSON.stringify({ id: 'backpressure', source: 'node-docs', title: 'Backpressure', summary: 'Why write() returns false.' })}\n`,
    ),
  curriculum: (root) => {
    write(root, '.codelabgen/curriculum.yaml', CURRICULUM);
    write(root, '.codelabgen/plan.md', '# Plan\n');
  },
  scaffold: (root) => ok(root, 'register'),
};

/**
 * A course with a test command that is a real process, advanced to `phase` with valid artifacts
 * (a copy of one made per run for each phase and config).
 */
export function courseAt(phase: string, config = ''): string {
  return sharedCopyOfCourse(...phaseFixture(phase, config));
}

function phaseFixture(phase: string, config: string): [string, (root: string) => void] {
  return [
    `phase ${phase}\n${config}`,
    (root) => {
      initCourse(root, 'Streams');
      write(
        root,
        '.codelabgen/config.yaml',
        `schema_version: 1\nruntime: custom\ntest_command: [node, --test]\n${config}`,
      );
      for (const next of PHASES_TO_LESSONS.slice(0, PHASES_TO_LESSONS.indexOf(phase) + 1)) {
        const current = readState(root).phase as string;
        ARTIFACTS_BY_PHASE[current]?.(root);
        ok(root, 'state', 'phase', next, ...(current.startsWith('gate_') ? ['--approved'] : []));
      }
    },
  ];
}

type LessonWalk = ReadonlyArray<readonly [id: string, stage: string]>;
interface WalkBase {
  config: string;
  register: boolean;
}

/**
 * A course at phase lessons (as courseAt, with `config`), registered again when `register` is set,
 * whose lessons were moved by advance() to the stages given, in that order: a copy of one made per
 * run, so that a test starts from lessons already walked instead of walking them with the CLI again.
 */
export function courseWithLessons(
  stages: Readonly<Record<string, string>>,
  { config = '', register = false }: Partial<WalkBase> = {},
): string {
  return copyOf(walkTemplate({ config, register }, Object.entries(stages)));
}

function copyOf(template: string): string {
  const root = path.join(tempDir(), 'course');
  cpSync(template, root, { recursive: true, verbatimSymlinks: true });
  return root;
}

/**
 * The shared course of a walk, made from the shared course one stage short of it plus that stage, so
 * that the walks of all tests share their common steps: each stage costs its CLI call once per run.
 */
function walkTemplate(base: WalkBase, walk: LessonWalk): string {
  const last = walk.at(-1);
  if (last === undefined)
    return sharedCourseTemplate(`lessons register ${base.register}\n${base.config}`, (root) => {
      cpSync(sharedCourseTemplate(...phaseFixture('lessons', base.config)), root, { recursive: true });
      if (base.register) ok(root, 'register');
    });
  const [id, stage] = last;
  const before = STAGES[STAGES.indexOf(stage as (typeof STAGES)[number]) - 1];
  if (before === undefined) throw new Error(`courseWithLessons: no stage "${stage}" to walk lesson ${id} to`);
  const shorter = walk.slice(0, -1).filter(([other]) => other !== id);
  if (shorter.length !== walk.length - 1) throw new Error(`courseWithLessons: lesson ${id} walked twice`);
  const parent = before === 'pending' ? shorter : [...shorter, [id, before] as const];
  const key = `lessons register ${base.register} walk ${JSON.stringify(walk)}\n${base.config}`;
  return sharedCourseTemplate(key, (root) => {
    cpSync(walkTemplate(base, parent), root, { recursive: true });
    advance(root, id, stage);
  });
}

/** Writes the artifact the work for `stage` produces for lesson `id`. */
export function writeStageArtifact(root: string, id: string, stage: string): void {
  const dir = LESSON_DIRS[id] as string;
  if (stage === 'spec')
    write(root, `.codelabgen/lessons/${id}/spec.yaml`, `lesson: "${id}"\ntitle: Lesson ${id}\ngoal: Show it.\n`);
  if (stage === 'code') {
    write(root, `${dir}/main.mjs`, 'export const answer = 42;\n');
    write(
      root,
      `${dir}/main.test.mjs`,
      "import test from 'node:test';\nimport assert from 'node:assert';\nimport { answer } from " +
        "'./main.mjs';\ntest('answer', () => assert.equal(answer, 42));\n",
    );
  }
  if (stage === 'readalong') write(root, `${dir}/docs/readalong.md`, '# Read along\n\n```js file=main.mjs\n```\n');
  if (stage === 'notes') write(root, `${dir}/docs/notes.md`, '# Notes\n');
  if (stage === 'reviewed')
    write(root, `.codelabgen/lessons/${id}/review.md`, `---\nlesson: "${id}"\nverdict: pass\n---\nLooks good.\n`);
}

/**
 * Simulates a passing `verify --update-state` by appending a lesson.verified event to the log; the
 * next command replays it (the store's recovery path). For tests that must not depend on verify.
 */
export function simulateVerified(root: string, id: string): void {
  const state = readState(root) as { last_seq: number };
  const event = {
    seq: state.last_seq + 1,
    ts: new Date().toISOString(),
    kind: 'lesson.verified',
    lesson: id,
    code_hash: hashLessonCode(path.join(root, LESSON_DIRS[id] as string)),
    run: null,
  };
  appendFileSync(path.join(root, '.codelabgen', 'events.jsonl'), `${JSON.stringify(event)}\n`);
  ok(root, 'state', 'show'); // recovery applies it
}

/** Moves a lesson from its stage to `target`, writing each artifact; verification is simulated. */
export function advance(
  root: string,
  id: string,
  target: string,
  verify: (root: string, id: string) => void = simulateVerified,
): void {
  const lessons = readState(root).lessons as Record<string, { stage: string }>;
  const stageAt = (stage: string) => STAGES.indexOf(stage as (typeof STAGES)[number]);
  for (const stage of STAGES.slice(stageAt(lessons[id]?.stage ?? 'pending') + 1, stageAt(target) + 1)) {
    writeStageArtifact(root, id, stage);
    if (stage === 'verified') verify(root, id);
    else ok(root, 'state', 'set', id, stage);
  }
}

export function lessonOf(root: string, id: string): Record<string, unknown> {
  return (readState(root).lessons as Record<string, Record<string, unknown>>)[id] as Record<string, unknown>;
}

export function readJson(root: string, rel: string): unknown {
  return JSON.parse(readFileSync(path.join(root, rel), 'utf8'));
}
