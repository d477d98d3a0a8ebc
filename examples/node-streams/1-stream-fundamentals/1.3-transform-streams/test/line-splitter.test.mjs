import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter } from '../src/line-splitter.mjs';

/** Writes the given chunks one by one and collects every line the splitter emits. */
async function splitChunks(chunks) {
  const splitter = new LineSplitter();
  const lines = [];
  splitter.on('data', (line) => lines.push(line));
  const done = new Promise((resolve, reject) => {
    splitter.once('end', resolve);
    splitter.once('error', reject);
  });
  for (const chunk of chunks) splitter.write(chunk);
  splitter.end();
  await done;
  return lines;
}

test('emits one chunk per line', async () => {
  assert.deepEqual(await splitChunks(['alpha\nbeta\ngamma\n']), ['alpha', 'beta', 'gamma']);
});

test('joins a line that is split across chunks', async () => {
  assert.deepEqual(await splitChunks(['al', 'pha\nbe', 'ta\n']), ['alpha', 'beta']);
});

test('emits the last line even without a trailing newline', async () => {
  assert.deepEqual(await splitChunks(['one\ntwo']), ['one', 'two']);
});

test('strips the carriage return of Windows line endings', async () => {
  assert.deepEqual(await splitChunks(['one\r\ntwo\r', '\nthree']), ['one', 'two', 'three']);
});

test('keeps empty lines, but emits nothing for empty input', async () => {
  assert.deepEqual(await splitChunks(['a\n\nb\n']), ['a', '', 'b']);
  assert.deepEqual(await splitChunks([]), []);
});

test('decodes a UTF-8 character split across two chunks', async () => {
  const bytes = Buffer.from('café\nnaïve\n', 'utf8');
  const cut = bytes.indexOf(0xa9); // second byte of "é" (0xc3 0xa9)
  const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)];
  assert.deepEqual(await splitChunks(chunks), ['café', 'naïve']);
});

test('the readable side is in object mode, the writable side is not', () => {
  const splitter = new LineSplitter();
  assert.equal(splitter.readableObjectMode, true);
  assert.equal(splitter.writableObjectMode, false);
});
