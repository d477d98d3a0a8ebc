// A Readable that produces the numbers 1..limit on demand, one object per chunk.
import { Readable } from 'node:stream';

/**
 * Creates a counter stream. `onPush` is called with every number handed to the
 * stream, so a caller can watch how far ahead of the consumer the source runs.
 */
export function createCounter({ limit, highWaterMark = 16, onPush = () => {} }) {
  let next = 1;
  return new Readable({
    objectMode: true,
    highWaterMark,
    read() {
      while (next <= limit) {
        onPush(next);
        const wantsMore = this.push(next);
        next += 1;
        if (!wantsMore) return; // buffer full: wait for the next read() call
      }
      this.push(null); // end of data: 'end' fires once the buffer is drained
    },
  });
}
