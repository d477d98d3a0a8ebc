// A Transform that upper-cases UTF-8 text; failAfter makes it fail, to study error handling.
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Upper-cases text; with `failAfter: n`, fails with an error on chunk n + 1. */
export function createUpperCase({ failAfter = Infinity } = {}) {
  const decoder = new StringDecoder('utf8');
  let seen = 0;
  return new Transform({
    transform(chunk, _encoding, callback) {
      seen += 1;
      if (seen > failAfter) return callback(new Error(`upper-case failed on chunk ${seen}`));
      callback(null, decoder.write(chunk).toUpperCase());
    },
    flush(callback) {
      callback(null, decoder.end().toUpperCase());
    },
  });
}
