// A state command exits with process.exit() once its output is drained (cli/state-main.ts): output
// that a full non-blocking pipe (EAGAIN) left queued in the stream must keep the process alive.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Descriptor } from './stdio.ts';

test('a descriptor is drained after direct writes, and not while its stream still queues what EAGAIN left', () => {
  const queued: string[] = [];
  const stream = {
    write: (chunk: Buffer) => queued.push(chunk.toString()),
    get writableLength() {
      return queued.join('').length;
    },
  } as unknown as NodeJS.WriteStream;
  const written: string[] = [];
  let full = false;
  const writeFd = (_fd: number, bytes: NodeJS.ArrayBufferView, at?: number | null) => {
    if (full) throw Object.assign(new Error('resource temporarily unavailable'), { code: 'EAGAIN' });
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      .subarray(at ?? 0)
      .toString();
    written.push(text);
    return Buffer.byteLength(text);
  };
  // fd 2 of a test process is a pipe or a file, not a terminal: the descriptor writes directly
  const sink = new Descriptor(2, () => stream, writeFd as never);
  assert.equal(sink.drained, true, 'nothing written yet');
  sink.write('first\n');
  assert.deepEqual(written, ['first\n']);
  assert.equal(sink.drained, true, 'written straight to the descriptor');
  full = true;
  sink.write('second\n');
  assert.deepEqual(queued, ['second\n'], 'EAGAIN hands the rest to the stream');
  assert.equal(sink.drained, false, 'the stream still holds it');
  queued.length = 0;
  assert.equal(sink.drained, true, 'the stream has sent it');
});
