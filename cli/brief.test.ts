// `codelabgen brief <role> [LESSON|--phase P]`: a brief per worker role names the files to write, the
// test command and the stage to report; the code-fixer's carries the failing assertion of a real
// verify; the reviewer's the checklist and what changed; the phase workers' their schemas; refusals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advance, courseAt, courseWithLessons, LESSON_DIRS, ok, refused, write } from './protocol-fixture.ts';
import { cli } from './testing.ts';

interface BriefJson {
  course: string;
  role: string;
  lesson: string | null;
  phase: string | null;
  stage: string | null;
  reports: string | null;
  files: string[];
  test_command: { command: string; cwd: string } | null;
  text: string;
}

function brief(root: string, ...args: string[]): BriefJson {
  const json = JSON.parse(ok(root, 'brief', ...args, '--json')) as BriefJson;
  // The text the CLI prints is the --json document's text.
  assert.equal(ok(root, 'brief', ...args), `${json.text}\n`);
  return json;
}

/** The status block a brief ends with, parsed. */
function statusOf(text: string): Record<string, unknown> {
  const blocks = [...text.matchAll(/```json\n(.+)\n```/g)];
  assert.ok(blocks.length > 0, `no status block in:\n${text}`);
  return JSON.parse(blocks.at(-1)![1]!) as Record<string, unknown>;
}

const SPEC = `lesson: "1.1"
title: Readable streams
goal: Read a file as a stream of lines.
objectives: [Create a Readable from an iterable, Consume it with for await]
files:
  - { path: lines.mjs, purpose: the line splitter }
  - { path: lines.test.mjs, purpose: its tests }
tests: [splits on newlines, keeps a last line without newline]
`;

/**
 * A course at phase lessons with 1.1 walked to `stage` by advance() (a copy of one made per run; the
 * spec is advance()'s, as when lessonCourse's is overwritten by the walk).
 */
function walkedCourse(stage: string): string {
  return courseWithLessons({ '1.1': stage });
}

/** A lesson course at phase lessons; 1.1 has a prerequisite-free spec with files; 1.2 builds on 1.1. */
function lessonCourse(): string {
  const root = courseAt('lessons');
  write(root, '.codelabgen/lessons/1.1/spec.yaml', SPEC);
  return root;
}

test('each lesson role gets a brief naming the files to write, the test command and the stage to report', {
  timeout: 120_000,
}, () => {
  const root = lessonCourse();
  const dir = LESSON_DIRS['1.1'];
  const cases: Array<{ role: string; at: string; files: string[]; reports: string }> = [
    { role: 'example-designer', at: 'pending', files: ['.codelabgen/lessons/1.1/spec.yaml'], reports: 'spec' },
    { role: 'code-author', at: 'spec', files: [`${dir}/lines.mjs`, `${dir}/lines.test.mjs`], reports: 'code' },
    { role: 'code-fixer', at: 'code', files: [], reports: 'code' },
    { role: 'readalong-writer', at: 'verified', files: [`${dir}/docs/readalong.md`], reports: 'readalong' },
    { role: 'notes-writer', at: 'readalong', files: [`${dir}/docs/notes.md`], reports: 'notes' },
    { role: 'lesson-reviewer', at: 'notes', files: ['.codelabgen/lessons/1.1/review.md'], reports: 'reviewed' },
  ];
  for (const { role, at, files, reports } of cases) {
    if (at === 'spec') ok(root, 'state', 'set', '1.1', 'spec');
    else if (at !== 'pending') advance(root, '1.1', at);
    const got = brief(root, role, '1.1');
    assert.equal(got.stage, at, role);
    assert.equal(got.reports, reports, role);
    assert.deepEqual(got.files, files, role);
    assert.deepEqual(got.test_command, { command: 'node --test', cwd: dir }, role);
    assert.match(
      got.text,
      new RegExp(`^You are the ${role} of lesson 1\\.1 \\("Readable streams", module 1 "Basics"\\)`),
    );
    for (const file of files) assert.ok(got.text.includes(file), `${role}: names ${file}`);
    assert.ok(got.text.includes(`Test command, run in ${dir}/: node --test`), `${role}: the test command`);
    assert.equal(statusOf(got.text).stage, reports, `${role}: the status block's stage`);
    assert.equal(statusOf(got.text).lesson, '1.1');
    assert.ok(!got.text.includes('Note: the lesson is at stage'), `${role}: the lesson is at its stage`);
  }
});

test("the example-designer gets the spec's schema and path; the code-author the spec's goal, objectives and tests", {
  timeout: 60_000,
}, () => {
  const root = courseAt('lessons');
  const designer = brief(root, 'example-designer', '1.2').text;
  assert.match(designer, /Spec: \.codelabgen\/lessons\/1\.2\/spec\.yaml does not exist yet \(you write it\)\./);
  assert.match(
    designer,
    /Schema `lesson-spec` \(\.codelabgen\/lessons\/<id>\/spec\.yaml; whole: codelabgen schema show lesson-spec\):/,
  );
  assert.match(designer, /^- goal \(string, required\): What the example demonstrates/m);
  assert.match(designer, /^  - path \(string, required\): Path relative to the lesson folder\./m);
  // Prerequisites: 1.2 builds on 1.1.
  assert.match(designer, /## Prerequisites\n\n- 1\.1 "Readable streams" \(folder 1-basics\/1\.1-readable\//);

  write(root, '.codelabgen/lessons/1.1/spec.yaml', SPEC);
  ok(root, 'state', 'set', '1.1', 'spec');
  const author = brief(root, 'code-author', '1.1').text;
  assert.match(author, /Goal \(spec\): Read a file as a stream of lines\./);
  assert.match(author, /Objectives \(spec\):\n- Create a Readable from an iterable\n- Consume it with for await/);
  assert.match(author, /The tests check \(spec\):\n- splits on newlines/);
  assert.match(author, /- lines\.mjs: the line splitter/);
});

test("the code-fixer's brief carries the failing assertion of a real verify run, its cause and the fix budget left", {
  timeout: 120_000,
}, () => {
  const root = walkedCourse('code');
  const dir = LESSON_DIRS['1.1'];
  write(
    root,
    `${dir}/main.test.mjs`,
    "import test from 'node:test';\nimport assert from 'node:assert';\nimport { answer } from './main.mjs';\n" +
      "test('the answer is 41', () => assert.strictEqual(answer, 41));\n",
  );
  ok(root, 'state', 'set', '1.1', 'spec', '--note', 'new test');
  ok(root, 'state', 'set', '1.1', 'code');
  const verify = cli(['verify', '1.1', '--update-state'], { cwd: root });
  assert.equal(verify.code, 1, verify.stderr);
  const text = brief(root, 'code-fixer', '1.1').text;
  assert.match(
    text,
    /## The failing run\n\nRun 1 \(\.codelabgen\/runs\/1\.1\/1\.json\): node --test: 1 of 1 tests failed\./,
  );
  assert.match(text, /Cause: the answer is 41: /);
  assert.match(text, /the answer is 41\n[\s\S]*42 !== 41/);
  assert.match(text, /Fix budget: 2 of 3 attempts left/);

  // Before any failure there is no run to fix: the brief says verify comes first.
  const fresh = walkedCourse('code');
  assert.match(
    brief(fresh, 'code-fixer', '1.1').text,
    /No failing run is recorded for lesson 1\.1: the orchestrator runs codelabgen verify 1\.1 --update-state first/,
  );
});

test("the readalong-writer's example code reference is valid in its lesson: a readalong made of it passes", {
  timeout: 120_000,
}, () => {
  const root = walkedCourse('code');
  const dir = LESSON_DIRS['1.1'];
  write(
    root,
    `${dir}/src/split.mjs`,
    `${Array.from({ length: 30 }, (_, n) => `export const line${n + 1} = ${n + 1};`).join('\n')}\n`,
  );
  ok(root, 'state', 'set', '1.1', 'spec', '--note', 'more code');
  ok(root, 'state', 'set', '1.1', 'code');
  advance(root, '1.1', 'verified');
  const text = brief(root, 'readalong-writer', '1.1').text;
  const example = /\n(```js file=\S+ lines=\S+(?: mark=\S+)?\n```)\n/.exec(text)?.[1];
  assert.ok(example, `no example reference in:\n${text}`);
  // Which file and range is the builder's choice; that the page and check accept it is what counts.
  assert.match(example, /^```js file=(main\.mjs|src\/split\.mjs) lines=\d+-\d+/);
  assert.match(text, /Diagrams: a ```mermaid fenced block/);
  assert.match(text, /Front matter \(optional\)/);
  write(root, `${dir}/docs/readalong.md`, `# Read along\n\n## The code\n\n${example}\n\nWhat it does.\n`);
  ok(root, 'state', 'set', '1.1', 'readalong');
  const check = cli(['check', '--json'], { cwd: root });
  const refs = (JSON.parse(check.stdout) as { checks: Array<{ name: string; problems: string[] }> }).checks;
  assert.deepEqual(
    refs.flatMap((section) => section.problems),
    [],
    'check finds no problem in a readalong made of the example',
  );
});

test("a reworking writer gets the rework note and the reviewer's findings; the reviewer gets the checklist and what changed since the last review", {
  timeout: 120_000,
}, () => {
  const root = walkedCourse('notes');
  const dir = LESSON_DIRS['1.1'];
  const first = brief(root, 'lesson-reviewer', '1.1').text;
  assert.match(
    first,
    new RegExp(
      '## Review checklist\n\nWrite \\.codelabgen/lessons/1\\.1/review\\.md with front matter lesson: "1\\.1", ' +
        'verdict: pass or revise, reviewer: lesson-reviewer, round: 1',
    ),
  );
  assert.match(first, /^- code references resolve[^\n]*: ok$|^- [^\n]+: ok$/m);
  assert.match(first, /No review yet: this is round 1\./);
  write(
    root,
    '.codelabgen/lessons/1.1/review.md',
    '---\nlesson: "1.1"\nverdict: revise\nround: 1\nfindings:\n' +
      '  - { severity: major, where: docs/readalong.md, text: "Say why the stream ends." }\n---\nOne major finding.\n',
  );
  ok(root, 'state', 'rework', '1.1', 'readalong', '--note', 'reviewer: explain the end of the stream');
  const writer = brief(root, 'readalong-writer', '1.1');
  assert.equal(writer.stage, 'verified');
  assert.match(
    writer.text,
    /## Rework\n\nThe lesson was moved back from notes to verified \([^)]+\): "reviewer: explain the end of the stream"/,
  );
  assert.match(writer.text, /- major \(docs\/readalong\.md\): Say why the stream ends\./);

  write(
    root,
    `${dir}/docs/readalong.md`,
    '# Read along\n\n```js file=main.mjs\n```\n\nThe stream ends when the iterable does.\n',
  );
  ok(root, 'state', 'set', '1.1', 'readalong');
  ok(root, 'state', 'set', '1.1', 'notes');
  const second = brief(root, 'lesson-reviewer', '1.1').text;
  assert.match(second, /round: 2/);
  assert.match(
    second,
    /The last review \([^)]+\): verdict revise, round 1, 1 finding\(s\):\n- major \(docs\/readalong\.md\): Say why the stream ends\./,
  );
  assert.match(second, new RegExp(`Files written since: [^\\n]*${dir}/docs/readalong\\.md`));
  assert.match(second, /with verdict revise it is the lesson's stage now \(notes\)/);
});

test('phase workers get their artifacts with paths and schemas, what the phase still needs and a phase status', {
  timeout: 60_000,
}, () => {
  const recon = courseAt('recon');
  const researcher = brief(recon, 'researcher');
  assert.equal(researcher.phase, 'recon');
  assert.deepEqual(researcher.files, ['.codelabgen/research/overview.md']);
  assert.match(researcher.text, /^You are the researcher of phase recon of the course "Streams"/);
  assert.match(researcher.text, /- \.codelabgen\/research\/overview\.md: the research overview/);
  assert.match(
    researcher.text,
    /\.codelabgen\/research\/overview\.md\): \.codelabgen\/research\/overview\.md: missing/,
  );
  assert.deepEqual(statusOf(researcher.text), {
    phase: 'recon',
    status: 'ok',
    artifacts: ['.codelabgen/research/overview.md'],
    notes: '<one line>',
  });

  const curriculum = courseAt('curriculum');
  const designer = brief(curriculum, 'curriculum-designer');
  assert.deepEqual(designer.files, ['.codelabgen/curriculum.yaml', '.codelabgen/plan.md']);
  assert.match(
    designer.text,
    /Schema `curriculum` \(\.codelabgen\/curriculum\.yaml; whole: codelabgen schema show curriculum\):/,
  );
  assert.match(designer.text, /^- modules \(list of objects, required\): Modules in teaching order\.\n  - id /m);
  assert.match(designer.text, /## Read first\n\n- \.codelabgen\/research\/overview\.md \(\d+ bytes\)/);
  assert.match(designer.text, /- \.codelabgen\/topics\/node-docs\.jsonl/);
  assert.equal(brief(curriculum, 'researcher', '--phase', 'curriculum').files.length, 2);
});

test("a lesson brief quotes the digests of its topics' sources and never another lesson's code", {
  timeout: 60_000,
}, () => {
  const root = walkedCourse('verified');
  write(
    root,
    '.codelabgen/sources/node-docs.md',
    `# Node streams\n\n${'Backpressure is the flow control of streams. '.repeat(60)}\n`,
  );
  write(
    root,
    '.codelabgen/curriculum.yaml',
    `title: Streams
modules:
  - id: "1"
    slug: basics
    title: Basics
    lessons:
      - { id: "1.1", slug: readable, title: Readable streams, summary: "Reading in chunks.", topics: [backpressure] }
      - { id: "1.2", slug: writable, title: Writable streams, prerequisites: ["1.1"], topics: [backpressure] }
  - id: "2"
    slug: advanced
    title: Advanced
    lessons:
      - { id: "2.1", slug: transform, title: Transform streams }
`,
  );
  const text = brief(root, 'example-designer', '1.2').text;
  assert.match(text, /### Node docs \(node-docs, https:\/\/nodejs\.org\/api\/stream\.html\)/);
  assert.match(text, /Topics of this lesson: backpressure "Backpressure": Why write\(\) returns false\./);
  assert.match(
    text,
    /Digest \(\.codelabgen\/sources\/node-docs\.md, the beginning; read the rest there\):\n\n> # Node streams/,
  );
  assert.ok(text.length < 8000, `the brief stays short: ${text.length} characters`);
  assert.match(text, /- 1\.1 "Readable streams": Reading in chunks\./);
  assert.ok(!text.includes('export const answer'), "the prerequisite's code is not in the brief");
  assert.ok(
    !brief(root, 'readalong-writer', '1.1').text.includes('export const answer'),
    'a brief shows no code itself, only its files',
  );
});

test('brief refuses an unknown role or lesson, a lesson role without a lesson, a phase role with one, a phase without workers', {
  timeout: 60_000,
}, () => {
  const root = lessonCourse();
  refused(
    root,
    ['brief', 'code-writer', '1.1'],
    new RegExp(
      '^error: brief: unknown role "code-writer"; roles: example-designer, code-author, code-fixer, readalong-writer, ' +
        'notes-writer, lesson-reviewer, researcher, source-finder, topic-extractor, curriculum-designer$',
    ),
  );
  refused(
    root,
    ['brief', 'code-author'],
    /^error: brief code-author: give the lesson id \(e\.g\. codelabgen brief code-author 1\.2\)$/,
  );
  refused(root, ['brief', 'code-author', '9.9'], /unknown lesson "9\.9"/);
  refused(
    root,
    ['brief', 'code-author', '1.1', '--phase', 'recon'],
    /a code-author works on one lesson; give its id instead of --phase/,
  );
  refused(
    root,
    ['brief', 'researcher', '1.1'],
    /^error: brief researcher: a researcher works on a phase, not a lesson \("1\.1"\)$/,
  );
  refused(
    root,
    ['brief', 'researcher', '--phase', 'scaffold'],
    /^error: brief researcher --phase scaffold: phase workers write the artifacts of recon, sources, topics, curriculum$/,
  );
  refused(
    root,
    ['brief', 'source-finder', '--phase', 'topics'],
    /^error: brief source-finder --phase topics: a source-finder works in phase sources$/,
  );
});

test('brief --help shows its usage, its options and examples', { timeout: 30_000 }, () => {
  const help = cli(['brief', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: codelabgen brief <role> \[LESSON\] \[--phase P\] \[--json\]\n/);
  assert.match(help.stdout, /--phase P {18}a phase role's phase: recon, sources, topics or curriculum/);
  assert.match(help.stdout, /codelabgen brief code-fixer 1\.2 --json/);
});
