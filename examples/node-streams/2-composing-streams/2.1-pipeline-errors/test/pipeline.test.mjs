import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createUpperCase } from '../src/upper-case.mjs';
import { upperCaseFile } from '../src/upper-case-file.mjs';

/** A source that never ends on its own, like a socket: it pushes only what we give it. */
const openSource = () => new Readable({ read() {} });

test('pipe() does not destroy the other streams when one fails', async () => {
  const source = openSource();
  const failing = createUpperCase({ failAfter: 0 });
  const destination = new PassThrough();
  failing.on('error', () => {}); // without this listener the error would crash the process
  source.pipe(failing).pipe(destination);
  source.push('hello');
  await nextTurn();
  assert.equal(failing.destroyed, true);
  assert.equal(source.destroyed, false); // still open: a file descriptor or socket would leak
  assert.equal(destination.destroyed, false); // and the destination never ends
  source.destroy();
});

test('pipeline() rejects with the error and destroys every stream', async () => {
  const source = openSource();
  const failing = createUpperCase({ failAfter: 0 });
  const destination = new PassThrough();
  source.push('hello');
  await assert.rejects(pipeline(source, failing, destination), /upper-case failed on chunk 1/);
  assert.equal(source.destroyed, true);
  assert.equal(failing.destroyed, true);
  assert.equal(destination.destroyed, true);
});

test('an AbortSignal cancels a pipeline that would never finish', async () => {
  const source = openSource();
  const destination = new PassThrough();
  const controller = new AbortController();
  const running = pipeline(source, createUpperCase(), destination, { signal: controller.signal });
  source.push('partial data');
  controller.abort();
  await assert.rejects(running, { name: 'AbortError' });
  assert.equal(source.destroyed, true);
  assert.equal(destination.destroyed, true);
});

test('upperCaseFile writes the upper-cased file, multi-byte characters included', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'streams-2.1-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'in.txt'), 'straße and café\n');
  await upperCaseFile(path.join(dir, 'in.txt'), path.join(dir, 'out.txt'));
  assert.equal(await readFile(path.join(dir, 'out.txt'), 'utf8'), 'STRASSE AND CAFÉ\n');
});

test('a failure half-way removes the partial output file', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'streams-2.1-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const input = path.join(dir, 'big.txt');
  const output = path.join(dir, 'out.txt');
  await writeFile(input, 'x'.repeat(1024 * 1024)); // 1 MiB: several chunks of 64 KiB
  await assert.rejects(upperCaseFile(input, output, { failAfter: 2 }), /failed on chunk 3/);
  assert.equal(existsSync(output), false);
});

test('a missing input file rejects with ENOENT and leaves no output', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'streams-2.1-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const output = path.join(dir, 'out.txt');
  await assert.rejects(upperCaseFile(path.join(dir, 'missing.txt'), output), { code: 'ENOENT' });
  assert.equal(existsSync(output), false);
});
