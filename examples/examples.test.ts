// The example courses are what the demo copies into a fresh course: every data file must validate,
// every lesson must be complete (docs, code references, diagrams), and every lesson's tests must pass.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ConfigSchema, CurriculumSchema, GlossaryEntrySchema, LessonSpecSchema, ReviewSchema, SourceSchema, TopicSchema,
  parseData, parseDataFile, parseFrontMatter, parseJsonlFile,
  type Config, type Curriculum, type CurriculumLesson,
} from '../content-schemas/index.ts';
import { codeRefProblems, codeRefs, lessonDiagrams } from './lesson-docs.ts';

const EXAMPLES = path.dirname(fileURLToPath(import.meta.url));
const EXPECTED_COURSES = ['node-streams', 'python-generators'];
/** Files the generator writes but the demo must create itself, through the CLI. */
const PROTOCOL_OWNED = ['state.json', 'events.jsonl', 'lock', 'report.md', 'report.json', 'runs'];

interface Lesson { module: string; meta: CurriculumLesson; dir: string }
interface Course { name: string; root: string; config: Config; curriculum: Curriculum; lessons: Lesson[] }

function loadCourse(name: string): Course {
  const root = path.join(EXAMPLES, name);
  const meta = (rel: string) => path.join(root, '.codelabgen', rel);
  const config = parseDataFile(ConfigSchema, meta('config.yaml'), `${name}/.codelabgen/config.yaml`);
  const curriculum = parseDataFile(CurriculumSchema, meta('curriculum.yaml'), `${name}/.codelabgen/curriculum.yaml`);
  const lessons = curriculum.modules.flatMap((module) =>
    module.lessons.map((lesson) => ({ module: module.id, meta: lesson, dir: path.join(root, `${module.id}-${module.slug}`, `${lesson.id}-${lesson.slug}`) })),
  );
  return { name, root, config, curriculum, lessons };
}

const courseNames = readdirSync(EXAMPLES).filter((entry) => existsSync(path.join(EXAMPLES, entry, '.codelabgen', 'config.yaml'))).sort();
const courses = courseNames.map(loadCourse);

function nonEmpty(file: string): string {
  assert.ok(existsSync(file), `missing ${path.relative(EXAMPLES, file)}`);
  const text = readFileSync(file, 'utf8');
  assert.ok(text.trim().length > 0, `${path.relative(EXAMPLES, file)} is empty`);
  return text;
}

test('the doc checks find bad code references and skip examples nested in other fences', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'examples-docs-'));
  try {
    mkdirSync(path.join(dir, 'docs'));
    writeFileSync(path.join(dir, 'a.mjs'), 'one\ntwo\nthree\n');
    const doc = ['```js file=a.mjs lines=2-3', '```', '```js file=a.mjs lines=3-4', '```', '```js file=b.mjs', '```',
      '```js file=a.mjs', 'code', '```', '````md', '```js file=nowhere.mjs', '```', '````', '```mermaid', 'flowchart LR', '```'].join('\n');
    writeFileSync(path.join(dir, 'docs', 'notes.md'), doc);
    const lesson = path.basename(dir);
    assert.deepEqual(codeRefProblems(dir, 'docs/notes.md'), [
      `lesson ${lesson} docs/notes.md:3: code reference file=a.mjs lines=3-4: the file has only 3 lines`,
      `lesson ${lesson} docs/notes.md:5: code reference file=b.mjs: no such file in the lesson folder`,
      `lesson ${lesson} docs/notes.md:7: code reference file=a.mjs: the block must be empty (the site fills it from the file)`,
    ]);
    assert.equal(codeRefs(readFileSync(path.join(dir, 'docs', 'notes.md'), 'utf8')).length, 4, 'the reference nested in ````md is an example, not a reference');
    assert.deepEqual(lessonDiagrams(dir), [{ where: 'docs/notes.md:14', source: 'flowchart LR' }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('both example courses are present', () => {
  assert.deepEqual(courseNames, EXPECTED_COURSES);
});

for (const course of courses) {
  const meta = (rel: string) => path.join(course.root, '.codelabgen', rel);
  const shown = (rel: string) => `${course.name}/.codelabgen/${rel}`;

  describe(`example course ${course.name}`, () => {
    test('research, sources with digests, and topics validate', () => {
      nonEmpty(meta('research/overview.md'));
      nonEmpty(meta('research/deprecations.md'));
      const sources = parseJsonlFile(SourceSchema, meta('sources.jsonl'), shown('sources.jsonl'));
      const accepted = sources.filter((source) => source.status === 'accepted');
      assert.ok(accepted.length >= 1, 'no accepted source');
      const topicIds = new Set<string>();
      for (const source of accepted) {
        nonEmpty(meta(`sources/${source.id}.md`));
        const topics = parseJsonlFile(TopicSchema, meta(`topics/${source.id}.jsonl`), shown(`topics/${source.id}.jsonl`));
        assert.ok(topics.length > 0, `topics/${source.id}.jsonl has no topic`);
        for (const topic of topics) {
          assert.equal(topic.source, source.id, `topic ${topic.id} names source ${topic.source}`);
          assert.ok(!topicIds.has(topic.id), `topic id ${topic.id} is not unique`);
          topicIds.add(topic.id);
        }
      }
      const unknown = course.lessons.flatMap((lesson) => lesson.meta.topics.filter((id) => !topicIds.has(id)).map((id) => `${lesson.meta.id}: ${id}`));
      assert.deepEqual(unknown, [], 'curriculum lessons name topics that no topics file defines');
    });

    test('curriculum, plan and glossary are consistent', () => {
      nonEmpty(meta('plan.md'));
      const ids = course.lessons.map((lesson) => lesson.meta.id);
      assert.equal(new Set(ids).size, ids.length, 'lesson ids are not unique');
      course.lessons.forEach((lesson, index) => {
        for (const prerequisite of lesson.meta.prerequisites) assert.ok(ids.slice(0, index).includes(prerequisite), `${lesson.meta.id} needs ${prerequisite}, which does not come before it`);
      });
      const glossary = parseJsonlFile(GlossaryEntrySchema, meta('glossary.jsonl'), shown('glossary.jsonl'));
      assert.ok(glossary.length >= 5, 'glossary has fewer than 5 terms');
      for (const entry of glossary) for (const id of entry.lessons) assert.ok(ids.includes(id), `glossary term "${entry.term}" names unknown lesson ${id}`);
    });

    test('no protocol-owned file is checked in (the demo creates them through the CLI)', () => {
      assert.deepEqual(PROTOCOL_OWNED.filter((rel) => existsSync(meta(rel))), []);
    });

    for (const lesson of course.lessons) {
      const id = lesson.meta.id;
      test(`lesson ${id}: spec, review, docs, code references and diagrams`, () => {
        const spec = parseDataFile(LessonSpecSchema, meta(`lessons/${id}/spec.yaml`), shown(`lessons/${id}/spec.yaml`));
        assert.equal(spec.lesson, id);
        for (const file of spec.files) assert.ok(existsSync(path.join(lesson.dir, file.path)), `spec names ${file.path}, which the lesson lacks`);
        const reviewFile = shown(`lessons/${id}/review.md`);
        const { data, body } = parseFrontMatter(nonEmpty(meta(`lessons/${id}/review.md`)), reviewFile);
        const review = parseData(ReviewSchema, data, reviewFile);
        assert.equal(review.lesson, id);
        assert.equal(review.verdict, 'pass');
        assert.ok(body.trim().length > 0, `${reviewFile} has no review text`);
        nonEmpty(path.join(lesson.dir, 'docs/readalong.md'));
        nonEmpty(path.join(lesson.dir, 'docs/notes.md'));
        assert.deepEqual([...codeRefProblems(lesson.dir, 'docs/readalong.md'), ...codeRefProblems(lesson.dir, 'docs/notes.md')], []);
        const refs = codeRefs(readFileSync(path.join(lesson.dir, 'docs/readalong.md'), 'utf8'));
        assert.ok(refs.length >= 3, `the read-along of ${id} has ${refs.length} code references`);
        assert.ok(lessonDiagrams(lesson.dir).length >= 1, `lesson ${id} has no mermaid diagram`);
      });
    }
  });
}

describe('every mermaid diagram parses', async () => {
  // mermaid runs in a browser; its parser works in Node once DOMPurify (which needs a window) has
  // the functions mermaid calls. Only parsing happens here, so sanitizing may be the identity.
  const { default: DOMPurify } = await import('dompurify');
  const purify = DOMPurify as unknown as Record<string, unknown>;
  for (const name of ['addHook', 'removeHook', 'removeHooks']) purify[name] ??= () => {};
  purify.sanitize ??= (text: string) => text;
  const { default: mermaid } = await import('mermaid');
  for (const course of courses) {
    for (const lesson of course.lessons) {
      for (const diagram of lessonDiagrams(lesson.dir)) {
        test(`${course.name} ${lesson.meta.id} ${diagram.where}`, async () => {
          await assert.doesNotReject(mermaid.parse(diagram.source.replace(/^%% title:.*\n/, '')));
        });
      }
    }
  }
});

/** Runs a command in a folder without a shell; resolves with its exit code and output. */
function run(argv: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  delete env.NODE_TEST_CONTEXT; // else the child `node --test` reports to us in the runner's binary protocol
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The argv that runs a lesson's tests in its folder, by the course runtime. */
function testCommand(course: Course): string[] {
  return course.config.runtime === 'python' ? ['python3', '-m', 'unittest', 'discover'] : [process.execPath, '--test', '--test-reporter=tap'];
}

// Lesson test runs start when this file loads, at most RUN_JOBS at a time, so they overlap with
// the schema and diagram checks above; each test below awaits its lesson's run.
const RUN_JOBS = 3;
let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(job: () => Promise<T>): Promise<T> {
  if (running >= RUN_JOBS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await job();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}
const lessonRuns = new Map(courses.flatMap((course) => course.lessons.map((lesson) => {
  const result = limited(() => run(testCommand(course), lesson.dir));
  result.catch(() => {}); // awaited (and reported) by the lesson's test
  return [lesson.dir, result] as const;
})));

describe('every lesson\'s tests pass', () => {
  for (const course of courses) {
    for (const lesson of course.lessons) {
      test(`${course.name} ${lesson.meta.id}: ${testCommand(course).slice(1).join(' ')}`, async () => {
        const { code, output } = await lessonRuns.get(lesson.dir)!;
        assert.equal(code, 0, output);
        if (course.config.runtime === 'python') {
          assert.match(output, /^Ran [1-9]\d* tests?/m, output);
        } else {
          assert.match(output, /^# pass [1-9]\d*$/m, output);
          assert.match(output, /^# fail 0$/m, output);
        }
      });
    }
  }
});
