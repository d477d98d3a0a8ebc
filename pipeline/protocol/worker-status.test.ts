// The worker status finder: the last JSON object of a longer text, validated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DataFileError } from '../../content-schemas/index.ts';
import { lastJsonBlock, parseWorkerStatus } from './worker-status.ts';

const cases: Array<[string, string, unknown]> = [
  ['a bare object', '{"a":1}', { a: 1 }],
  ['the last of several', 'first {"a":1} then {"b":2}', { b: 2 }],
  [
    'a fenced block after prose with braces',
    'I used {braces} in prose.\n```json\n{"lesson":"1.2","note":"a } in a string"}\n```\n',
    { lesson: '1.2', note: 'a } in a string' },
  ],
  ['a nested object counts as its outer object', 'x {"a":{"b":1}} y', { a: { b: 1 } }],
  ['none', 'no json here { not json }', undefined],
];
for (const [name, text, expected] of cases)
  test(`lastJsonBlock: ${name}`, () => assert.deepEqual(lastJsonBlock(text), expected));

test('parseWorkerStatus validates and names the field', () => {
  const status = parseWorkerStatus(
    'Done.\n{"lesson": "1.2", "status": "ok", "stage": "code", "artifacts": ["1-basics/1.2-routing/src/graph.ts"]}',
    'answer.txt',
  );
  assert.equal('stage' in status && status.stage, 'code');
  assert.throws(
    () => parseWorkerStatus('{"lesson":"1.2","status":"fine","stage":"code"}', 'answer.txt'),
    (error: unknown) => error instanceof DataFileError && /^answer\.txt: status: /.test(error.message),
  );
  assert.throws(
    () => parseWorkerStatus('{"lesson":"1.2","status":"ok","stage":"code","artifacts":["../x"]}', 'a'),
    /artifacts\[0\]: expected a relative path/,
  );
});

test("parseWorkerStatus: a phase worker's status; the task decides which kind is expected; a missing field is named missing", () => {
  const phase = parseWorkerStatus(
    '{"phase": "recon", "status": "ok", "artifacts": [".codelabgen/research/overview.md"]}',
    'a',
  );
  assert.deepEqual(phase, { phase: 'recon', status: 'ok', artifacts: ['.codelabgen/research/overview.md'] });
  const problems = (text: string, expect?: Parameters<typeof parseWorkerStatus>[2]) => {
    try {
      parseWorkerStatus(text, 'a', expect);
    } catch (error) {
      return (error as DataFileError).problems;
    }
    return [];
  };
  assert.deepEqual(problems('{"lesson": "1.2", "status": "ok", "stage": "code"}', { task: 't3', phase: 'recon' }), [
    'task t3 is a phase task (phase recon): expected a phase worker\'s status {"phase": "recon", "status": ' +
      '"ok"|"failed"|"needs-user", "artifacts": [...], "notes": "..."}',
    'phase: missing; expected one of "recon"|"sources"|"topics"|"curriculum"|"scaffold"|"assembly"',
    '(top level): unknown fields "lesson", "stage"',
  ]);
  assert.deepEqual(problems('{"phase": "recon", "status": "ok"}', { task: 't4', lesson: '1.2' }).slice(0, 1), [
    'task t4 is for lesson 1.2: expected a lesson worker\'s status {"lesson": "1.2", "status": ' +
      '"ok"|"failed"|"needs-user", "stage": "<stage>", "artifacts": [...], "notes": "..."}',
  ]);
  assert.deepEqual(problems('{"status": "ok", "stage": "code"}'), ['lesson: missing; expected a string']);
});
