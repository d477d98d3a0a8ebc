// The example courses are what the demo copies into a fresh course: every data file must validate,
// every lesson must be complete (docs, code references, diagrams), and every lesson's tests must pass.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ConfigSchema, CurriculumSchema, GlossaryEntrySchema, LessonSpecSchema, ReviewSchema, SourceSchema, TopicSchema,
  parseData, parseDataFile, parseFrontMatter, parseJsonlFile,
  type Config, type Curriculum, type CurriculumLesson,
} from '../content-schemas/index.ts';

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

/** A fenced block: its info string (language and attributes), body and 1-based line. */
interface Fence { info: string; body: string; line: number }

/** Top-level fenced blocks of a markdown text (a fence closes only with the same marker, at least as long). */
export function fencedBlocks(markdown: string): Fence[] {
  const blocks: Fence[] = [];
  let open: { marker: string; info: string; line: number; body: string[] } | undefined;
  markdown.split('\n').forEach((text, index) => {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text);
    if (open) {
      if (fence && fence[1]!.startsWith(open.marker) && fence[1]![0] === open.marker[0] && fence[2]!.trim() === '') {
        blocks.push({ info: open.info, body: open.body.join('\n'), line: open.line });
        open = undefined;
      } else open.body.push(text);
    } else if (fence) open = { marker: fence[1]!, info: fence[2]!.trim(), line: index + 1, body: [] };
  });
  return blocks;
}

/** `key=value` attributes of a fence info string. */
function attributes(info: string): Record<string, string> {
  return Object.fromEntries([...info.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** Problems with the code references of one doc: missing files, bad ranges, non-empty bodies. */
function codeRefProblems(lessonDir: string, doc: string): string[] {
  const problems: string[] = [];
  for (const block of fencedBlocks(readFileSync(path.join(lessonDir, doc), 'utf8'))) {
    const attrs = attributes(block.info);
    if (attrs.file === undefined) continue;
    const where = `${doc}:${block.line}`;
    if (block.body.trim() !== '') problems.push(`${where}: a code reference must have an empty body`);
    if (path.isAbsolute(attrs.file) || attrs.file.split('/').includes('..')) { problems.push(`${where}: file=${attrs.file} leaves the lesson folder`); continue; }
    const file = path.join(lessonDir, attrs.file);
    if (!existsSync(file) || !statSync(file).isFile()) { problems.push(`${where}: file=${attrs.file} does not exist`); continue; }
    if (attrs.lines === undefined) continue;
    const range = /^(\d+)(?:-(\d+))?$/.exec(attrs.lines);
    const start = Number(range?.[1]);
    const end = Number(range?.[2] ?? range?.[1]);
    if (!range || start < 1 || end < start || end > lineCount(file)) problems.push(`${where}: lines=${attrs.lines} is not a range inside ${attrs.file} (${lineCount(file)} lines)`);
  }
  return problems;
}

/** Mermaid sources of a lesson: ```mermaid blocks in its docs and docs/diagrams/*.mmd files. */
function lessonDiagrams(lessonDir: string): { where: string; source: string }[] {
  const diagrams: { where: string; source: string }[] = [];
  for (const doc of ['docs/readalong.md', 'docs/notes.md']) {
    const file = path.join(lessonDir, doc);
    if (!existsSync(file)) continue;
    for (const block of fencedBlocks(readFileSync(file, 'utf8'))) {
      if (block.info.split(/\s+/)[0] === 'mermaid') diagrams.push({ where: `${doc}:${block.line}`, source: block.body });
    }
  }
  const folder = path.join(lessonDir, 'docs', 'diagrams');
  if (existsSync(folder)) {
    for (const name of readdirSync(folder).filter((entry) => entry.endsWith('.mmd')).sort()) {
      diagrams.push({ where: `docs/diagrams/${name}`, source: readFileSync(path.join(folder, name), 'utf8') });
    }
  }
  return diagrams;
}

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
        const refs = fencedBlocks(readFileSync(path.join(lesson.dir, 'docs/readalong.md'), 'utf8')).filter((block) => attributes(block.info).file);
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

describe('every lesson\'s tests pass', { concurrency: 3 }, () => {
  for (const course of courses) {
    for (const lesson of course.lessons) {
      test(`${course.name} ${lesson.meta.id}`, async () => {
        if (course.config.runtime === 'python') {
          const { code, output } = await run(['python3', '-m', 'unittest', 'discover'], lesson.dir);
          assert.equal(code, 0, output);
          assert.match(output, /^Ran [1-9]\d* tests?/m, output);
        } else {
          const { code, output } = await run([process.execPath, '--test', '--test-reporter=tap'], lesson.dir);
          assert.equal(code, 0, output);
          assert.match(output, /^# pass [1-9]\d*$/m, output);
          assert.match(output, /^# fail 0$/m, output);
        }
      });
    }
  }
});
