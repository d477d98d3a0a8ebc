// The page data the site's pages render, computed on a course read from disk without Astro: the
// sidebar, prev/next, the stage and verification badges, what a draft misses, the "On this page"
// entries, the names search results give headings, and last-updated dates. The site builds check
// that the pages show this data (pipeline/site/site-build.test.ts, site/site-config.test.ts).
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { generateCourse, passingRun } from '../../bench/generate-course.ts';
import { commitToGit, scratchDir } from '../../cli/testing.ts';
import { courseAt } from '../../pipeline/course/course.ts';
import { hashLessonCode } from '../../pipeline/artifacts/code-hash.ts';
import { isPublished, lastRunPassed, leftOutReason, readCourse, type CourseView } from '../../pipeline/read/index.ts';
import { writeRunResult } from '../../pipeline/verify/runs.ts';
import { lessonToc, searchNames } from './lesson-toc.ts';
import { courseLessons, lessonPages } from './lessons.ts';
import type { SiteOptions } from './options.ts';
import { verifyBadge } from './verify-badge.ts';
import { sidebarModules } from './sidebar.ts';

const BASE = '/my-course/';
const work = scratchDir('codelabgen-page-data-');
const siteOptions = (course: string, drafts = false): SiteOptions => ({
  course,
  drafts,
  dev: false,
  diagramCache: path.join(work, 'diagrams'),
  imageStage: path.join(work, 'images'),
  prefix: '',
});

describe('a course of four lessons in two modules, lesson 2.1 not done', { timeout: 120_000 }, () => {
  const root = path.join(work, 'course');
  let view: CourseView;
  before(async () => {
    const { dirs } = await generateCourse(root, {
      lessons: 4,
      perModule: 2,
      stageOf: (i) => (i === 2 ? 'code' : 'done'),
      diagram: () => null,
    });
    appendFileSync(path.join(root, dirs[0]!, 'docs', 'readalong.md'), '\n## Set-up\n\nText.\n\n## The `read()` call\n');
    view = readCourse(root);
  });

  test('the sidebar lists the included lessons by module, under the base; a module with none is left out', () => {
    const options = siteOptions(root);
    const course = { curriculum: view.curriculum, lessons: courseLessons(view, options) };
    assert.deepEqual(sidebarModules(course, BASE), [
      {
        id: '1',
        title: 'Module 1',
        lessons: [
          { id: '1.1', title: 'Lesson 1 title', href: '/my-course/lessons/1.1-lesson-1/' },
          { id: '1.2', title: 'Lesson 2 title', href: '/my-course/lessons/1.2-lesson-2/' },
        ],
      },
      {
        id: '2',
        title: 'Module 2',
        lessons: [{ id: '2.2', title: 'Lesson 4 title', href: '/my-course/lessons/2.2-lesson-4/' }],
      },
    ]);
    const drafts = { curriculum: view.curriculum, lessons: courseLessons(view, siteOptions(root, true)) };
    assert.deepEqual(
      sidebarModules(drafts, '/').map((m) => m.lessons.map((l) => l.href)),
      [
        ['/lessons/1.1-lesson-1/', '/lessons/1.2-lesson-2/'],
        ['/lessons/2.1-lesson-3/', '/lessons/2.2-lesson-4/'],
      ],
    );
    const onlyUndone = { curriculum: view.curriculum, lessons: course.lessons.filter((l) => l.id === '2.1') };
    assert.deepEqual(sidebarModules(onlyUndone, BASE), [], 'a module without an included lesson has a sidebar entry');
  });

  test('a publish build has the done lessons only; prev/next skip the lesson left out and cross modules', () => {
    const pages = lessonPages(view, siteOptions(root), BASE);
    assert.deepEqual(
      pages.map((p) => [p.id, p.prev?.id ?? null, p.next?.id ?? null, p.order]),
      [
        ['1.1', null, '1.2', 0],
        ['1.2', '1.1', '2.2', 1],
        ['2.2', '1.2', null, 2],
      ],
    );
    assert.deepEqual(pages[1]!.next, { id: '2.2', slug: 'lesson-4', title: 'Lesson 4 title' });
  });

  test('badges: a done lesson carries its passed run and no missing step; a draft names its stage and what it misses', () => {
    const pages = lessonPages(view, siteOptions(root, true), BASE);
    assert.deepEqual(
      pages.map((p) => p.id),
      ['1.1', '1.2', '2.1', '2.2'],
    );
    const done = pages[0]!;
    assert.equal(done.stage, 'done');
    assert.equal(done.done, true);
    assert.deepEqual(done.missing, []);
    assert.deepEqual(
      { tests: done.verification.tests, passed: done.verification.passed, run: done.verification.run },
      { tests: '1/1', passed: true, run: 1 },
    );
    assert.equal(done.verification.drifted, false);
    assert.match(done.verification.codeHash ?? '', /^sha256:[0-9a-f]{64}$/);
    const draft = pages[2]!;
    assert.equal(draft.stage, 'code');
    assert.equal(draft.done, false);
    assert.deepEqual(draft.missing, ['verification', 'readalong', 'notes', 'review']);
    assert.equal(draft.verification.tests, null);
    assert.deepEqual([draft.prev?.id, draft.next?.id], ['1.2', '2.2'], 'drafts link every lesson in order');
  });

  test("'On this page' lists the page's sections with each doc's headings, which get ids no section has", () => {
    const [page] = lessonPages(view, siteOptions(root), BASE);
    const toc = lessonToc(page!, new Map());
    assert.deepEqual(
      toc.map((t) => [t.depth, t.id, t.text]),
      [
        [2, 'objectives', 'Objectives'],
        [2, 'readalong', 'Reading lesson 1'],
        // A doc's own headings sit one level under its section (its # title is the section's).
        [3, 'set-up', 'Set-up'],
        [3, 'the-read-call', 'The read() call'],
        [2, 'notes', 'Notes for lesson 1'],
        [2, 'code', 'Files'],
      ],
    );
    // Search results keep the inline code pagefind's plain text loses.
    assert.deepEqual(searchNames(page!, toc), { 'the-read-call': ['The ', 'read()', ' call'] });
  });
});

describe('a hand-verified course (site.publish: verified): a pass vouches for the code it ran on', {
  timeout: 120_000,
}, () => {
  // Lessons at stage code whose last verify run passed (a hand author's verify, or runs copied in
  // by CI). Lesson 1.2's code changes after its run: its pass is of other code.
  const root = path.join(work, 'hand-verified');
  let view: CourseView;
  before(async () => {
    const { ids, dirs } = await generateCourse(root, {
      lessons: 2,
      perModule: 2,
      stageOf: () => 'code',
      diagram: () => null,
    });
    const course = courseAt(root);
    ids.forEach((id, i) => {
      const dir = dirs[i]!;
      writeRunResult(course, passingRun(id, dir, hashLessonCode(path.join(root, dir)), 2));
    });
    appendFileSync(path.join(root, dirs[1]!, 'src', 'main.ts'), 'export const changed = true;\n');
    appendFileSync(path.join(root, dirs[0]!, 'docs', 'notes.md'), '\nA docs change is no code change.\n');
    view = readCourse(root);
    view.config.site.publish = 'verified';
  });

  test('published only while the code is what passed; the left-out lesson says why', () => {
    const [first, second] = view.lessons;
    assert.deepEqual([isPublished(view, first!), isPublished(view, second!)], [true, false]);
    assert.deepEqual([lastRunPassed(view, first!), lastRunPassed(view, second!)], [true, false]);
    assert.match(leftOutReason(view, second!), /code changed since verify run 1 passed/);
    assert.deepEqual(
      lessonPages(view, siteOptions(root), BASE).map((p) => p.id),
      ['1.1'],
    );
  });

  test('the badge of the changed lesson is drifted and the lesson misses its verification', () => {
    const [first, second] = lessonPages(view, siteOptions(root, true), BASE);
    assert.deepEqual([first!.verification.passed, first!.verification.drifted, first!.missing], [true, false, []]);
    assert.deepEqual(
      [second!.verification.passed, second!.verification.drifted, second!.missing],
      [true, true, ['verification']],
    );
    assert.deepEqual(verifyBadge(first!.verification), { text: 'tests passed', tone: 'ok' });
    assert.deepEqual(
      verifyBadge(second!.verification),
      { text: 'tests passed', tone: 'warn' },
      'green for changed code',
    );
  });
});

test('search names: a lesson title with inline code names the lesson; a doc title the TOC shortens keeps its name', () => {
  const page = {
    id: '1.1',
    title: 'The `fetch()` API',
    docs: { readalong: null, notes: { title: 'Notes: The `fetch()` API', toc: [], mdx: null } },
  } as unknown as Parameters<typeof searchNames>[0];
  const toc = lessonToc({ ...page, objectives: [], diagrams: [], terms: [], sources: [] } as never, new Map());
  assert.deepEqual(
    toc.map((t) => t.id),
    ['readalong', 'notes', 'code'],
  );
  assert.deepEqual(searchNames(page, toc), { _top: ['1.1 The ', 'fetch()', ' API'], notes: ['Notes'] });
});

test('last updated: none outside git, the last commit date of the lesson folder in git', {
  timeout: 120_000,
}, async () => {
  const root = path.join(work, 'git-course');
  await generateCourse(root, { lessons: 2, diagram: () => null });
  const updated = () => lessonPages(readCourse(root), siteOptions(root), '/').map((p) => p.updated);
  assert.deepEqual(updated(), [null, null]);
  commitToGit(root, '2026-01-02T10:00:00Z');
  assert.deepEqual(updated(), ['2026-01-02', '2026-01-02']);
});
