// Generates a course for site tests and benchmarks: N lessons (readalong with a code reference,
// notes, 3 code files, 1 diagram each), state.json through the real store API, and report.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
// The modules themselves, not the entry files: through pipeline/index.ts and content-schemas/index.ts
// each test file that makes its course here loaded the whole pipeline (0.9 s of CPU to load this
// file, 0.45 s now).
import type { EventDraft } from '../content-schemas/event.ts';
import type { Stage } from '../content-schemas/common.ts';
import { PHASES, STAGES } from '../content-schemas/names.ts';
import { ReportSchema } from '../content-schemas/report.ts';
import type { RunResult } from '../content-schemas/run-result.ts';
import { hashLessonCode } from '../pipeline/artifacts/code-hash.ts';
import { type Course, lessonDirName } from '../pipeline/course/course.ts';
import { commit } from '../pipeline/store/commit.ts';
import { createCourse } from '../pipeline/store/create.ts';
import { writeRunResult } from '../pipeline/verify/runs.ts';

export interface GenerateOptions {
  lessons: number;
  perModule?: number;
  /** Stage of each lesson by index (default: every lesson done). */
  stageOf?: (index: number) => Stage;
  /** Extra text appended to lesson i's notes (e.g. hostile HTML for sanitization tests). */
  notesExtra?: (index: number) => string;
  /** Diagram source of lesson i (default: a small flowchart unique to the lesson). */
  diagram?: (index: number) => string | null;
  title?: string;
}

const W = (dir: string, file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
};

export async function generateCourse(
  root: string,
  options: GenerateOptions,
): Promise<{ ids: string[]; dirs: string[] }> {
  const perModule = options.perModule ?? 5;
  const stageOf = options.stageOf ?? (() => 'done' as Stage);
  const { course } = await createCourse(root, {
    title: options.title ?? 'Generated course',
    topic: 'site benchmark',
    command: 'generate-course',
  });
  const modules: { id: string; slug: string; title: string; summary: string; lessons: unknown[] }[] = [];
  const registered: Extract<EventDraft, { kind: 'lessons.register' }>['lessons'] = [];
  for (let i = 0; i < options.lessons; i++) {
    const m = Math.floor(i / perModule) + 1;
    if (modules.length < m)
      modules.push({
        id: String(m),
        slug: `module-${m}`,
        title: `Module ${m}`,
        summary: `What module ${m} covers.`,
        lessons: [],
      });
    const id = `${m}.${(i % perModule) + 1}`;
    const slug = `lesson-${i + 1}`;
    modules[m - 1]!.lessons.push({
      id,
      slug,
      title: `Lesson ${i + 1} title`,
      summary: `Summary of lesson ${i + 1}.`,
      objectives: [`Objective A of lesson ${i + 1}`, `Objective B of lesson ${i + 1}`],
    });
    const dir = lessonDirName(String(m), `module-${m}`, id, slug);
    registered.push({
      id,
      title: `Lesson ${i + 1} title`,
      slug,
      module_id: String(m),
      module_slug: `module-${m}`,
      module_title: `Module ${m}`,
      dir,
    });
    writeLesson(path.join(root, dir), i, options);
  }
  const yaml = JSON.stringify(
    {
      title: options.title ?? 'Generated course',
      summary: 'A generated course for the site.',
      audience: 'Developers who test site builds.',
      modules,
    },
    null,
    2,
  );
  W(root, '.codelabgen/curriculum.yaml', yaml);
  await commit(course, { command: 'generate-course' }, () => ({
    kind: 'lessons.register',
    lessons: registered,
    removed: [],
  }));
  for (const [i, lesson] of registered.entries()) await advance(course, root, lesson.id, lesson.dir, stageOf(i));
  writeReport(root, registered, stageOf);
  return { ids: registered.map((l) => l.id), dirs: registered.map((l) => l.dir) };
}

function writeLesson(dir: string, i: number, options: GenerateOptions): void {
  const code = Array.from(
    { length: 30 },
    (_, n) => `export const value${n + 1} = ${n + 1}; // line ${n + 1} of lesson ${i + 1}`,
  ).join('\n');
  W(dir, 'src/main.ts', `${code}\n`);
  W(dir, 'src/util.ts', `export function double(x: number): number {\n  return x * 2;\n}\n`);
  W(
    dir,
    'test/main.test.ts',
    `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { value1 } from ` +
      `'../src/main.ts';\ntest('value1', () => assert.equal(value1, 1));\n`,
  );
  W(
    dir,
    'docs/readalong.md',
    `# Reading lesson ${i + 1}\n\nThe first lines set up the values.\n\n\`\`\`ts file=src/main.ts lines=2-4 ` +
      `mark=3\n\`\`\`\n\nThen a helper doubles numbers: see \`double\` in ` +
      `[util](https://example.com/util).\n\n\`\`\`diff\n-const x = 1;\n+const x = 2;\n\`\`\`\n`,
  );
  W(
    dir,
    'docs/notes.md',
    `# Notes for lesson ${i + 1}\n\nSome notes with **emphasis** and a list:\n\n- one\n- two\n${options.notesExtra?.(i) ?? ''}\n`,
  );
  const diagram = options.diagram
    ? options.diagram(i)
    : `%% title: Flow of lesson ${i + 1}\nflowchart LR\n  A${i}[Read ${i + 1}] --> B${i}[Transform] --> C${i}[Write]\n`;
  if (diagram !== null) W(dir, 'docs/diagrams/flow.mmd', diagram);
}

async function advance(c: Course, root: string, id: string, dir: string, stage: Stage): Promise<void> {
  const target = STAGES.indexOf(stage);
  const step = async (from: Stage, to: Stage) => {
    await commit(c, { command: 'generate-course' }, () => ({
      kind: 'lesson.stage',
      lesson: id,
      from,
      to,
      note: null,
      review_round_used: false,
    }));
  };
  if (target >= STAGES.indexOf('spec')) await step('pending', 'spec');
  if (target >= STAGES.indexOf('code')) await step('spec', 'code');
  if (target >= STAGES.indexOf('verified')) {
    const hash = hashLessonCode(path.join(root, dir));
    const run = writeRunResult(c, passingRun(id, dir, hash));
    await commit(c, { command: 'generate-course' }, () => ({
      kind: 'lesson.verified',
      lesson: id,
      code_hash: hash,
      run: run.run,
    }));
  }
  let from: Stage = 'verified';
  for (const to of ['readalong', 'notes', 'reviewed', 'done'] as const) {
    if (target < STAGES.indexOf(to)) break;
    await step(from, to);
    from = to;
  }
}

function writeReport(
  root: string,
  lessons: { id: string; title: string; module_id: string; module_title: string; dir: string }[],
  stageOf: (i: number) => Stage,
): void {
  const t = Date.parse('2026-11-01T10:00:00Z');
  const at = (min: number) => new Date(t + min * 60_000).toISOString();
  const phases = PHASES.slice(0, PHASES.indexOf('lessons') + 1);
  const byStage = Object.fromEntries(STAGES.map((s) => [s, lessons.filter((_, i) => stageOf(i) === s).length]));
  const report = {
    schema_version: 3,
    generated_at: at(600),
    course: { title: 'Generated course', topic: 'site benchmark' },
    phase: 'lessons',
    last_seq: 1,
    phases: phases.map((phase, i) => ({
      phase,
      started_at: at(i * 20 + (i > 6 ? 100 : 0)),
      ended_at: i === phases.length - 1 ? null : at((i + 1) * 20 + (i + 1 > 6 ? 100 : 0)),
      duration_ms: i === phases.length - 1 ? null : (20 + (i === 6 ? 100 : 0)) * 60_000,
      approved: phase.startsWith('gate'),
      reopened_from: null,
    })),
    totals: {
      lessons: lessons.length,
      by_stage: byStage,
      done: byStage.done ?? 0,
      blocked: 0,
      stale: 0,
      fix_attempts: lessons.length % 7,
      review_rounds: Math.floor(lessons.length / 3),
      verify_runs: lessons.length,
      tasks: lessons.length * 4,
      phase_tasks: 0,
      reopens: 0,
      tests: lessons.length,
      verify_passed: lessons.length,
      verify_pass_rate: 1,
      lessons_reworked: 0,
      rework_rate: 0,
      wall_ms: 600 * 60_000,
    },
    needs_human: [],
    decisions: [],
    course_story: [],
    lessons: lessons.map((l, i) => ({
      id: l.id,
      title: l.title,
      module_id: l.module_id,
      module_title: l.module_title,
      dir: l.dir,
      stage: stageOf(i),
      blocked: false,
      stale: false,
      fix_attempts: i % 3,
      fix_budget_resets: 0,
      review_rounds: i % 2,
      review_rounds_granted: 0,
      reworks: i % 2,
      verify: {
        runs: 1 + (i % 3),
        passed: 1,
        failed: i % 3,
        last_run: 1 + (i % 3),
        last_passed: true,
        last_tests: { passed: 1, failed: 0, skipped: 0, total: 1 },
        last_at: at(300 + i),
      },
      failures: [],
      blocks: [],
      stale_marks: [],
      registered_at: at(180),
      done_at: stageOf(i) === 'done' ? at(300 + i * 3) : null,
      pending_to_done_ms: stageOf(i) === 'done' ? (120 + i * 3) * 60_000 : null,
      wall_ms: (120 + i * 3) * 60_000,
      tests: { passed: 1, failed: 0, skipped: 0, total: 1 },
      reviews: [],
      tasks: [],
      smooth: true,
      summary: `${l.id} ${l.title}: done`,
      story: [],
    })),
    tasks: [
      {
        role: 'code-author',
        count: lessons.length,
        done: lessons.length,
        failed: 0,
        reset: 0,
        running: 0,
        total_ms: lessons.length * 60_000,
        mean_ms: 60_000,
        max_ms: 90_000,
      },
    ],
    phase_tasks: [],
    tasks_by_phase: [],
    facts: [],
    site_build: null,
  };
  W(root, '.codelabgen/report.json', `${JSON.stringify(ReportSchema.parse(report), null, 2)}\n`);
}

/** A passing `node --test` run of lesson `id` (folder `dir`) on the code that hashes to `codeHash`. */
export function passingRun(id: string, dir: string, codeHash: string, tests = 1): Omit<RunResult, 'run'> {
  return {
    schema_version: 1,
    lesson: id,
    runtime: 'node',
    argv: ['node', '--test'],
    cwd: dir,
    started_at: new Date().toISOString(),
    duration_ms: 420,
    exit_code: 0,
    signal: null,
    timed_out: false,
    passed: true,
    tests: { passed: tests, failed: 0, skipped: 0, total: tests },
    output_tail: 'ok',
    output_bytes: 2,
    output_truncated: false,
    code_hash: codeHash,
    cause: null,
  };
}
