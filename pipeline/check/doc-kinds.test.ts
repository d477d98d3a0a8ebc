// Adding a lesson doc kind touches only its registry (content-schemas/doc-kinds.ts): with a test-only
// `exercises` kind in the registry (owned by the notes stage, optional), `check`, the stage checks,
// the conventions warnings, link resolution, the site's doc reading and the writer's brief all take
// docs/exercises.md, with no other change.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  DOC_KINDS,
  docKindOfFile,
  lessonDocFiles,
  STAGES,
  type DocKind,
  type State,
} from '../../content-schemas/index.ts';
import { removeDir, tempDir } from '../../cli/testing.ts';
import { forwardProblems } from '../artifacts/lesson-artifacts.ts';
import { CONVENTION_TOPICS } from '../authoring/conventions.ts';
import { filesToWrite } from '../brief/render-lesson.ts';
import type { LessonFacts } from '../brief/facts.ts';
import { LESSON_ROLES } from '../brief/roles.ts';
import { courseAt } from '../course/course.ts';
import { readLessonDocs } from '../read/lesson-files.ts';
import type { SiteLesson } from '../read/course-data.ts';
import { checkLessonDocs, courseDocLinks } from '../site/check-refs.ts';
import { resolveLink } from '../site/doc-links.ts';
import { stageDocProblems } from '../site/stage-docs.ts';
import { checkConventions } from './conventions-check.ts';

const EXERCISES: DocKind = {
  name: 'exercises',
  stage: 'notes',
  required: false,
  needsCodeReference: false,
  ownsDiagramFiles: false,
  title: 'Exercises',
  noun: 'exercises',
  layout: 'prose',
  writer: 'notes-writer',
  conventions: 'notes',
};
const kinds = DOC_KINDS as unknown as DocKind[];

const root = tempDir('codelabgen-doc-kinds-');
const dir = '1-basics/1.1-intro';
const lessonDir = path.join(root, dir);
const lesson = { id: '1.1', slug: 'intro', dir, stage: 'readalong' } as unknown as State['lessons'][string];
const state = { lesson_order: ['1.1'], lessons: { '1.1': lesson } } as unknown as State;
const course = courseAt(root);
const BROKEN = 'lesson 1.1 docs/exercises.md:3: code reference file=nope.mjs: no such file in the lesson folder';

function put(rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(lessonDir, rel)), { recursive: true });
  writeFileSync(path.join(lessonDir, rel), text);
}

before(() => {
  kinds.push(EXERCISES);
  mkdirSync(path.join(root, '.codelabgen'), { recursive: true });
  writeFileSync(path.join(root, '.codelabgen', 'config.yaml'), 'schema_version: 1\nruntime: node\n');
  put('main.mjs', 'export const answer = 42;\n');
  put('docs/readalong.md', '# Read along\n\n```js file=main.mjs\n```\n');
  put('docs/notes.md', '# Notes\n\nSee [the exercises](exercises.md).\n');
  put('docs/exercises.md', '# Exercises\n\n```js file=nope.mjs\n```\n\n```js title=main.mjs\n```\n');
});
after(() => {
  kinds.splice(kinds.indexOf(EXERCISES), 1);
  removeDir(root);
});

test('the registry derives the kind files: docs/exercises.md and .mdx, and the kind of each', () => {
  assert.deepEqual(lessonDocFiles().slice(-2), ['docs/exercises.md', 'docs/exercises.mdx']);
  assert.equal(docKindOfFile('docs/exercises.mdx')?.name, 'exercises');
});

test('check checks the new doc: its broken code reference is a problem, its failed-looking fence a warning', async () => {
  const [refs] = await checkLessonDocs(course, state);
  assert.deepEqual(refs?.problems, [BROKEN]);
  assert.match(refs?.detail ?? '', /^2 references, 1 link, 0 images$/);
  assert.deepEqual(checkConventions(course, state).warnings, [
    'lesson 1.1 docs/exercises.md: line 6: fence "js title=main.mjs" looks like a code reference but is not one ' +
      '(title= is not file=); see: codelabgen conventions readalong',
  ]);
});

test("the move to notes checks it (its kind's stage), the move to readalong does not; optional when missing", () => {
  assert.deepEqual(stageDocProblems(course, state, lesson, 'notes'), [BROKEN]);
  assert.deepEqual(stageDocProblems(course, state, lesson, 'readalong'), []);
  assert.deepEqual(forwardProblems(course, state, lesson, 'notes'), [BROKEN]);
  rmSync(path.join(lessonDir, 'docs/exercises.md'));
  try {
    // Not required: only the notes' link to it fails now, as a link to a missing doc of a kind does.
    assert.deepEqual(forwardProblems(course, state, lesson, 'notes'), [
      'lesson 1.1 docs/notes.md:3: link exercises.md: lesson 1.1 has no docs/exercises.md',
    ]);
  } finally {
    put('docs/exercises.md', '# Exercises\n\n```js file=nope.mjs\n```\n\n```js title=main.mjs\n```\n');
  }
});

test("a link to another lesson's docs/exercises.md opens that section of its page", () => {
  const links = { ...courseDocLinks(course, state), href: (_: unknown, anchor: string) => `/lessons/1.1/#${anchor}` };
  assert.equal(
    resolveLink('../../1.1-intro/docs/exercises.md', dir, 'docs/notes.md', links),
    '/lessons/1.1/#exercises',
  );
});

test("the site reads it as the lesson's exercises, rendered", () => {
  const siteLesson = { id: '1.1', slug: 'intro', dir } as SiteLesson;
  const docs = readLessonDocs(course, siteLesson, false) as Record<string, { doc: string; title: string } | null>;
  assert.deepEqual(Object.keys(docs), ['readalong', 'notes', 'exercises']);
  assert.equal(docs.exercises?.doc, 'docs/exercises.md');
  assert.equal(docs.exercises?.title, 'Exercises');
});

test("its writer's brief lists it among the files to write", () => {
  const facts = { role: { role: 'notes-writer' }, lesson, spec: null } as unknown as LessonFacts;
  assert.deepEqual(filesToWrite(facts), [`${dir}/docs/notes.md`, `${dir}/docs/exercises.md`]);
});

test('every kind names a stage, its writer role and its conventions topic that exist; one kind at most has steps', () => {
  for (const kind of DOC_KINDS) {
    assert.ok(kind.stage === null || STAGES.includes(kind.stage), `${kind.name}: stage ${kind.stage}`);
    const writer = LESSON_ROLES.find((role) => role.role === kind.writer);
    assert.ok(writer, `${kind.name}: writer ${kind.writer} is no lesson role`);
    assert.ok(
      kind.stage === null || writer.reports === kind.stage,
      `${kind.name}: ${kind.writer} reports ${writer.reports}`,
    );
    assert.ok((CONVENTION_TOPICS as readonly string[]).includes(kind.conventions), `${kind.name}: ${kind.conventions}`);
  }
  // ReadAlong.astro's script drives one steps layout a page; kinds' names are section ids and file names.
  assert.ok(DOC_KINDS.filter((kind) => kind.layout === 'steps').length <= 1);
  assert.equal(new Set(DOC_KINDS.map((kind) => kind.name)).size, DOC_KINDS.length);
  assert.ok(DOC_KINDS.every((kind) => /^[a-z][a-z0-9-]*$/.test(kind.name)));
});
