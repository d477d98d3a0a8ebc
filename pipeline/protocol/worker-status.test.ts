// The worker status finder: the last JSON object of a longer text, validated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DataFileError } from '../../content-schemas/index.ts';
import { lastJsonBlock, parseWorkerStatus } from './worker-status.ts';

const cases: Array<[string, string, unknown]> = [
  ['a bare object', '{"a":1}', { a: 1 }],
  ['the last of several', 'first {"a":1} then {"b":2}', { b: 2 }],
  ['a fenced block after prose with braces', 'I used {braces} in prose.\n```json\n{"lesson":"1.2","note":"a } in a string"}\n```\n', { lesson: '1.2', note: 'a } in a string' }],
  ['a nested object counts as its outer object', 'x {"a":{"b":1}} y', { a: { b: 1 } }],
  ['none', 'no json here { not json }', undefined],
];
for (const [name, text, expected] of cases) test(`lastJsonBlock: ${name}`, () => assert.deepEqual(lastJsonBlock(text), expected));

test('parseWorkerStatus validates and names the field', () => {
  const status = parseWorkerStatus('Done.\n{"lesson": "1.2", "status": "ok", "stage": "code", "artifacts": ["1-basics/1.2-routing/src/graph.ts"]}', 'answer.txt');
  assert.equal(status.stage, 'code');
  assert.throws(() => parseWorkerStatus('{"lesson":"1.2","status":"fine","stage":"code"}', 'answer.txt'), (error: unknown) => error instanceof DataFileError && /^answer\.txt: status: /.test(error.message));
  assert.throws(() => parseWorkerStatus('{"lesson":"1.2","status":"ok","stage":"code","artifacts":["../x"]}', 'a'), /artifacts\[0\]: expected a relative path/);
});
