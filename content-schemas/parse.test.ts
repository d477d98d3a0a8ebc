// The one parse entry point: error lines name file and field, and hostile input (alias bombs, deep
// nesting, duplicate JSON keys, invalid UTF-8) is refused quickly with a DataFileError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  ConfigSchema,
  DataFileError,
  LessonWorkerStatusSchema,
  decodeUtf8,
  formatFieldPath,
  parseData,
  parseDataFile,
  parseFrontMatter,
  parseJsonText,
  parseJsonlText,
  parseYamlText,
} from './index.ts';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DataFileError, `expected a DataFileError, got ${String(error)}`);
    return error.message.split('\n');
  }
  assert.fail('expected a DataFileError');
}

test('formatFieldPath writes zod paths the way a person reads them', () => {
  assert.equal(formatFieldPath(['modules', 1, 'lessons', 0, 'id']), 'modules[1].lessons[0].id');
  assert.equal(formatFieldPath([]), '(top level)');
  assert.equal(formatFieldPath([0, 'a']), '[0].a');
});

test('parseData gives one "file: field.path: message" line per problem', () => {
  const lines = problemsOf(() =>
    parseData(LessonWorkerStatusSchema, { lesson: '../x', status: 'maybe', stage: 'code', extra: 1 }, 'answer.json'),
  );
  assert.equal(lines.length, 3);
  assert.match(
    lines.find((line) => line.startsWith('answer.json: lesson: ')) ?? '',
    /^answer\.json: lesson: expected a lesson id.*, got "\.\.\/x"$/,
  );
  assert.match(lines.find((line) => line.startsWith('answer.json: status: ')) ?? '', /, got "maybe"$/);
  assert.ok(lines.includes('answer.json: (top level): unknown field "extra"'), lines.join('\n'));
});

test('parseData names nested fields with indexes', () => {
  const schema = z.strictObject({
    modules: z.array(z.strictObject({ lessons: z.array(z.strictObject({ id: z.string() })) })),
  });
  const lines = problemsOf(() =>
    parseData(schema, { modules: [{ lessons: [] }, { lessons: [{ id: 2 }] }] }, '.codelabgen/curriculum.yaml'),
  );
  assert.deepEqual(lines, [
    '.codelabgen/curriculum.yaml: modules[1].lessons[0].id: Invalid input: expected string, received number, got 2',
  ]);
});

test('parseData returns the data with defaults applied', () => {
  const status = parseData(LessonWorkerStatusSchema, { lesson: '1.2', status: 'ok', stage: 'code' }, 'x');
  assert.deepEqual(status.artifacts, []);
});

/**
 * `fn`'s CPU time in ms (this process's): what a refusal costs, which a process stalled on a loaded
 * machine does not add to as it does to the wall time (a second of it is a stall, not a slow parser).
 */
function cpuMs(fn: () => void): number {
  const before = process.cpuUsage();
  fn();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

test('a YAML alias bomb is refused quickly', () => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let level = 1; level < 12; level += 1)
    lines.push(
      `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10)
        .fill(`*${String.fromCharCode(96 + level)}`)
        .join(',')}]`,
    );
  let problems: string[] = [];
  const cpu = cpuMs(() => (problems = problemsOf(() => parseYamlText(lines.join('\n'), 'bomb.yaml'))));
  assert.ok(cpu < 1000, `took ${cpu} ms of CPU, more than a second`);
  assert.equal(problems.length, 1);
  assert.match(problems[0] ?? '', /^bomb\.yaml: invalid YAML: .*alias/i);
});

test('deeply nested YAML and JSON-in-YAML are refused quickly', () => {
  let problems: string[] = [];
  const cpu = cpuMs(
    () => (problems = problemsOf(() => parseYamlText(`${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'deep.yaml'))),
  );
  assert.ok(cpu < 1000, `took ${cpu} ms of CPU, more than a second`);
  assert.match(problems[0] ?? '', /^deep\.yaml: invalid YAML: /);
  const block = Array.from({ length: 100 }, (_, depth) => `${'  '.repeat(depth)}k${depth}:`).join('\n');
  assert.match(problemsOf(() => parseYamlText(block, 'deep2.yaml'))[0] ?? '', /^deep2\.yaml: invalid YAML: /);
});

test('ordinary YAML with a few aliases still parses', () => {
  assert.deepEqual(parseYamlText('base: &b {x: 1}\nuse: *b\n', 'ok.yaml'), { base: { x: 1 }, use: { x: 1 } });
});

test('invalid YAML names the file in one line', () => {
  const problems = problemsOf(() => parseYamlText('a: [1, 2\nb: {', '.codelabgen/config.yaml'));
  assert.equal(problems.length, 1);
  assert.match(problems[0] ?? '', /^\.codelabgen\/config\.yaml: invalid YAML: /);
});

test('duplicate JSON keys are refused, at any depth', () => {
  assert.match(
    problemsOf(() => parseJsonText('{"a": 1, "a": 2}', 'dup.json'))[0] ?? '',
    /^dup\.json: invalid JSON: .*duplicate/i,
  );
  assert.match(problemsOf(() => parseJsonText('{"x": {"b": 1, "b": 1}}', 'dup.json'))[0] ?? '', /duplicate/i);
  assert.deepEqual(parseJsonText('{"a": "b\\": 1", "c": [1, {"a": 2}]}', 'ok.json'), { a: 'b": 1', c: [1, { a: 2 }] });
});

test('invalid JSON names the file', () => {
  assert.match(problemsOf(() => parseJsonText('{"a":', 'bad.json'))[0] ?? '', /^bad\.json: invalid JSON: /);
});

test('invalid UTF-8 is refused, not decoded with replacement characters', () => {
  assert.deepEqual(
    problemsOf(() => decodeUtf8(Buffer.from([0x61, 0xff, 0xfe, 0x62]), 'bin.yaml')),
    ['bin.yaml: not valid UTF-8 text'],
  );
  assert.equal(decodeUtf8(Buffer.from('héllo', 'utf8'), 'ok.yaml'), 'héllo');
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-parse-'));
  try {
    const file = path.join(dir, 'config.yaml');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('schema_version: 1\nruntime: "'), Buffer.from([0xc3, 0x28]), Buffer.from('"\n')]),
    );
    assert.deepEqual(
      problemsOf(() => parseDataFile(ConfigSchema, file, '.codelabgen/config.yaml')),
      ['.codelabgen/config.yaml: not valid UTF-8 text'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('parseJsonlText names the line of each problem', () => {
  const schema = z.strictObject({ id: z.string() });
  const lines = problemsOf(() =>
    parseJsonlText(schema, '{"id":"a"}\n\n{"id":1}\n{"id":"c","id":"d"}\n', 'topics.jsonl'),
  );
  assert.equal(lines.length, 2);
  assert.equal(lines[0], 'topics.jsonl: line 3: id: Invalid input: expected string, received number, got 1');
  assert.match(lines[1] ?? '', /^topics\.jsonl: line 4: .*duplicate/i);
});

test('parseFrontMatter splits YAML front matter from the body, and says when it is missing', () => {
  assert.deepEqual(parseFrontMatter('---\nverdict: pass\n---\nbody\n', 'review.md'), {
    data: { verdict: 'pass' },
    body: 'body\n',
  });
  assert.deepEqual(
    problemsOf(() => parseFrontMatter('no front matter', 'review.md')),
    ['review.md: missing YAML front matter (a block between "---" lines at the top)'],
  );
});

test('a missing or unreadable data file is a DataFileError naming the file, not a crash', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'parse-missing-'));
  try {
    assert.deepEqual(
      problemsOf(() => parseDataFile(ConfigSchema, path.join(dir, 'nope.yaml'), '.codelabgen/config.yaml')),
      ['.codelabgen/config.yaml: file not found'],
    );
    assert.deepEqual(
      problemsOf(() => parseDataFile(ConfigSchema, dir, '.codelabgen/config.yaml')),
      ['.codelabgen/config.yaml: is a folder, not a file'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
