// Two ways to consume a Readable: flowing mode ('data' events) and paused mode (read()).

/** Flowing mode: chunks are pushed to the 'data' listener as fast as they arrive. */
export function collectFlowing(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.once('end', () => resolve(chunks));
    stream.once('error', reject);
  });
}

/** Paused mode: on each 'readable' event, pull chunks with read() until it returns null. */
export function collectPaused(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('readable', () => {
      let chunk;
      while ((chunk = stream.read()) !== null) chunks.push(chunk);
    });
    stream.once('end', () => resolve(chunks));
    stream.once('error', reject);
  });
}
