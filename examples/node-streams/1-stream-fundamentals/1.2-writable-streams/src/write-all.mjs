// Writing many chunks to a Writable without ignoring backpressure.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';

/** Writes every chunk, waiting for 'drain' whenever write() says the buffer is full. */
export async function writeAll(writable, chunks) {
  for (const chunk of chunks) {
    if (!writable.write(chunk)) {
      await once(writable, 'drain');
    }
  }
  writable.end();
  await finished(writable); // resolves on 'finish', rejects if the stream errored
}

/** The common mistake: write everything at once and let the stream buffer it all. */
export async function writeAllIgnoringBackpressure(writable, chunks) {
  for (const chunk of chunks) writable.write(chunk);
  writable.end();
  await finished(writable);
}
