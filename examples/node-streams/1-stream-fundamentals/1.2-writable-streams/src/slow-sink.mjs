// A Writable that stores chunks slowly: each write completes on a later turn of the event loop.
import { Writable } from 'node:stream';

/**
 * Creates an object-mode sink. `received` collects the chunks in order and
 * `maxBuffered` records the largest writableLength seen, to measure memory use.
 */
export function createSlowSink({ highWaterMark, delayMs = 0 }) {
  const sink = new Writable({
    objectMode: true,
    highWaterMark,
    write(chunk, _encoding, callback) {
      setTimeout(() => {
        // writableLength counts this chunk and every chunk queued behind it
        sink.maxBuffered = Math.max(sink.maxBuffered, sink.writableLength);
        sink.received.push(chunk);
        callback(); // only now may the stream hand us the next chunk
      }, delayMs);
    },
  });
  sink.received = [];
  sink.maxBuffered = 0;
  return sink;
}
