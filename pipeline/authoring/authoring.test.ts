// The pure parts of `new module` / `new lesson`: slugs from titles, the next ids, and curriculum.yaml
// as written (it must read back as the same curriculum).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { CurriculumParser, parseData } from '../../content-schemas/fast.ts';
import type { Curriculum } from '../../content-schemas/index.ts';
import { addToCurriculum, editCurriculum, renderCurriculum, slugify } from './authoring.ts';
import { RefusalError } from '../course/errors.ts';

const lesson = (id: string, slug: string) => ({
  id,
  slug,
  title: `Lesson ${id}`,
  summary: '',
  objectives: [],
  prerequisites: [],
  topics: [],
});
const CURRICULUM: Curriculum = {
  title: 'Streams: "in depth"',
  summary: 'Line one\nline two: with a colon',
  audience: '',
  modules: [
    {
      id: '1',
      slug: 'basics',
      title: 'Basics',
      summary: '',
      lessons: [lesson('1.1', 'intro'), lesson('1.3', 'later')],
    },
    {
      id: 'extra',
      slug: 'extra',
      title: 'Extras #1',
      summary: 'x',
      lessons: [
        { ...lesson('extra.a', 'a'), objectives: ['Do - this', "it's fine"], prerequisites: ['1.1'], topics: ['t-1'] },
      ],
    },
  ],
};

test('slugify keeps ascii letters and digits, folds accents, joins words with one dash', () => {
  assert.equal(slugify('Readable streams & más'), 'readable-streams-mas');
  assert.equal(slugify('  pipeline() -- and   errors!  '), 'pipeline-and-errors');
  assert.equal(slugify('Node.js 22'), 'node-js-22');
  assert.equal(slugify('¿¡!'), '');
  assert.equal(slugify('word '.repeat(40)).length <= 60, true);
  assert.doesNotMatch(slugify('a'.repeat(59) + ' bb'), /-$/);
});

test("a new lesson takes its module's next number, after gaps; a new module the next numeric id", () => {
  const added = addToCurriculum(CURRICULUM, { kind: 'lesson', moduleId: '1', title: 'Backpressure' }, 'unused');
  assert.equal(added.lessonId, '1.4');
  assert.deepEqual(
    added.curriculum.modules[0]?.lessons.map((l) => `${l.id} ${l.slug}`),
    ['1.1 intro', '1.3 later', '1.4 backpressure'],
  );
  assert.equal(CURRICULUM.modules[0]?.lessons.length, 2, 'the given curriculum is not changed');
  assert.equal(
    addToCurriculum(CURRICULUM, { kind: 'lesson', moduleId: 'extra', title: 'B' }, 'unused').lessonId,
    'extra.1',
  );
  const module = addToCurriculum(CURRICULUM, { kind: 'module', title: 'More', lessonTitle: 'Start here' }, 'unused');
  assert.deepEqual(
    [module.moduleId, module.lessonId, module.curriculum.modules[2]?.lessons[0]?.slug],
    ['2', '2.1', 'start-here'],
  );
  const first = addToCurriculum(null, { kind: 'module', title: 'Basics', lessonTitle: 'Intro' }, 'Course title');
  assert.deepEqual([first.curriculum.title, first.moduleId, first.lessonId], ['Course title', '1', '1.1']);
});

test('a derived id that an oddly numbered lesson already holds is refused', () => {
  const odd: Curriculum = {
    ...CURRICULUM,
    modules: [
      { ...CURRICULUM.modules[0]!, lessons: [lesson('1.1', 'intro')] },
      { ...CURRICULUM.modules[1]!, lessons: [lesson('1.2', 'elsewhere')] },
    ],
  };
  assert.throws(
    () => addToCurriculum(odd, { kind: 'lesson', moduleId: '1', title: 'New' }, 'unused'),
    (error: unknown) =>
      error instanceof RefusalError &&
      error.message === 'new lesson: the next id of module 1, 1.2, is already used by "Lesson 1.2"',
  );
});

test('curriculum.yaml as written reads back as the same curriculum', () => {
  const text = renderCurriculum(CURRICULUM);
  assert.deepEqual(parseData(CurriculumParser, load(text), 'curriculum.yaml'), CURRICULUM);
  assert.match(
    text,
    /^ {6}- id: "extra\.a"\n {8}slug: a\n {8}title: "Lesson extra\.a"\n {8}objectives:\n {10}- "Do - this"\n/m,
  );
  assert.doesNotMatch(text, /audience|^ {4}summary: ""/m, 'empty optional fields are left out');
});

test("an edited curriculum.yaml keeps the author's comments, order and quoting, and adds only the entry", () => {
  const text = [
    '# Streams course: edited by hand, keep these notes',
    'title: \'Streams: "in depth"\'',
    'summary: "Line one\\nline two: with a colon"',
    'modules:',
    '  # the basics come first',
    '  - id: "1"',
    '    slug: basics',
    '    title: Basics',
    '    lessons:',
    '      - id: "1.1" # first',
    '        slug: intro',
    '        title: Lesson 1.1',
    '      - {id: "1.3", slug: later, title: Lesson 1.3}',
    '  - id: extra',
    '    title: "Extras #1" # slug after title on purpose',
    '    slug: extra',
    '    summary: x',
    '    lessons:',
    '      - id: extra.a',
    '        slug: a',
    '        title: Lesson extra.a',
    '        objectives: [Do - this, "it\'s fine"]',
    '        prerequisites: ["1.1"]',
    '        topics: [t-1]',
    '',
  ].join('\n');
  const current = parseData(CurriculumParser, load(text), 'curriculum.yaml');
  assert.deepEqual(current, CURRICULUM);
  for (const entry of [
    { kind: 'lesson', moduleId: '1', title: 'Back: pressure' },
    { kind: 'module', title: '10', lessonTitle: '1.10' },
  ] as const) {
    const addition = addToCurriculum(current, entry, 'unused');
    const edited = editCurriculum(text, addition, entry);
    assert.deepEqual(
      parseData(CurriculumParser, load(edited), 'curriculum.yaml'),
      addition.curriculum,
      `${entry.kind}: reads back as the new curriculum`,
    );
    let at = 0; // the author's lines, in order, within the edited text
    for (const line of edited.split('\n')) if (line === text.split('\n')[at]) at++;
    assert.equal(
      at,
      text.split('\n').length,
      `${entry.kind}: every line of the author's text is still there, in order:\n${edited}`,
    );
  }
  const lesson = editCurriculum(
    text,
    addToCurriculum(current, { kind: 'lesson', moduleId: '1', title: 'Back: pressure' }, 'unused'),
    { kind: 'lesson', moduleId: '1', title: 'Back: pressure' },
  );
  assert.ok(
    lesson.indexOf('back-pressure') < lesson.indexOf('- id: extra'),
    'the lesson goes at the end of its own module',
  );
  assert.equal(
    editCurriculum(null, addToCurriculum(null, { kind: 'module', title: 'B', lessonTitle: 'I' }, 'T'), {
      kind: 'module',
      title: 'B',
      lessonTitle: 'I',
    }).startsWith('# Modules and lessons'),
    true,
  );
});

test('a curriculum.yaml the document API cannot edit as asked is refused, never rendered anew', () => {
  const entry = { kind: 'lesson', moduleId: '1', title: 'Back: pressure' } as const;
  const addition = addToCurriculum(CURRICULUM, entry, 'unused');
  const refusal = (why: RegExp) => (error: unknown) =>
    error instanceof RefusalError &&
    why.test(error.message) &&
    error.hints[0] === 'add the lesson to .codelabgen/curriculum.yaml by hand, then run: codelabgen register';
  assert.throws(
    () => editCurriculum('title: T\nmodules: {}\n', addition, entry),
    refusal(
      /^new lesson: \.codelabgen\/curriculum\.yaml cannot be edited in place: its modules are not a YAML sequence$/,
    ),
  );
  const other = renderCurriculum({ ...CURRICULUM, title: 'Another course' }); // not the curriculum the addition was made from
  assert.throws(
    () => editCurriculum(other, addition, entry),
    refusal(/cannot be edited in place: the edited file would not read back as the new curriculum$/),
  );
});
