// A Transform that turns a byte stream into a stream of text lines (one string per chunk).
import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export class LineSplitter extends Transform {
  #decoder = new StringDecoder('utf8');
  #partial = ''; // text after the last newline seen so far

  constructor(options = {}) {
    // Bytes in (writable side), strings out (readable side, one line per chunk).
    super({ ...options, writableObjectMode: false, readableObjectMode: true });
  }

  _transform(chunk, _encoding, callback) {
    const text = this.#partial + this.#decoder.write(chunk);
    const lines = text.split('\n');
    this.#partial = lines.pop(); // the last piece has no newline yet
    for (const line of lines) this.push(stripCarriageReturn(line));
    callback();
  }

  _flush(callback) {
    const rest = this.#partial + this.#decoder.end();
    if (rest !== '') this.push(stripCarriageReturn(rest)); // last line without a newline
    callback();
  }
}

function stripCarriageReturn(line) {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
