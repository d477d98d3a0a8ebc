// The lesson download (site/lib/download.ts): one folder in the zip, stable bytes, the learner's test command.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unzipSync } from 'fflate';
import { formatBytes, lessonZip, testCommand } from './download.ts';

const files = [
  { path: 'src/a.mjs', bytes: new TextEncoder().encode('export const a = 1;\n') },
  { path: 'test/a.test.mjs', bytes: new Uint8Array([0, 1, 2]) },
];

test("the zip holds the lesson files under the folder's name, and the same files give the same bytes", () => {
  const zip = lessonZip('2.1-pipeline-errors', files);
  const entries = unzipSync(zip);
  assert.deepEqual(Object.keys(entries).sort(), [
    '2.1-pipeline-errors/src/a.mjs',
    '2.1-pipeline-errors/test/a.test.mjs',
  ]);
  assert.equal(new TextDecoder().decode(entries['2.1-pipeline-errors/src/a.mjs']), 'export const a = 1;\n');
  assert.deepEqual([...entries['2.1-pipeline-errors/test/a.test.mjs']!], [0, 1, 2]);
  assert.deepEqual(lessonZip('2.1-pipeline-errors', files), zip);
});

test('the test command is the verified one as a learner types it', () => {
  const run = (runtime: string, argv: string[], cwd = '1-m/1.1-x') => ({ runtime, argv, cwd });
  assert.equal(testCommand(run('node', ['/opt/node22/bin/node', '--test']), '1-m/1.1-x'), 'node --test');
  assert.equal(testCommand(run('node', ['npm', 'test']), '1-m/1.1-x'), 'npm test');
  assert.equal(
    testCommand(run('python', ['python3', '-m', 'pytest', '-p', 'no:cacheprovider']), '1-m/1.1-x'),
    'python3 -m pytest',
  );
  assert.equal(
    testCommand(run('python-uv', ['uv', 'run', 'pytest', '-p', 'no:cacheprovider', '1.1-x'], '1-m'), '1-m/1.1-x'),
    'uv run pytest',
  );
  assert.equal(
    testCommand(run('custom', ['sh', '-c', "echo 'it works'"]), '1-m/1.1-x'),
    `sh -c 'echo '\\''it works'\\'''`,
  );
  assert.equal(testCommand(null, '1-m/1.1-x'), null);
});

test('sizes read as a learner reads them', () => {
  assert.equal(formatBytes(512 * 1024), '512 KB');
  assert.equal(formatBytes(10), '1 KB');
  assert.equal(formatBytes(3.14 * 1024 * 1024), '3.1 MB');
});
