// The ETL's stages, as async generator functions for pipeline(): text → lines → records → batches.
import { StringDecoder } from 'node:string_decoder';
import { parseCsvLine } from './csv.mjs';

/** Splits text or byte chunks into { number, text } lines (1-based, \r\n tolerated). */
export async function* splitLines(source) {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let number = 0;
  for await (const chunk of source) {
    const lines = (partial + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split('\n');
    partial = lines.pop();
    for (const text of lines) yield { number: ++number, text: text.replace(/\r$/, '') };
  }
  const rest = partial + decoder.end();
  if (rest !== '') yield { number: ++number, text: rest.replace(/\r$/, '') };
}

/** Uses the first line as the header and yields one object per non-empty line. */
export async function* parseRecords(lines) {
  let header;
  for await (const { number, text } of lines) {
    if (text.trim() === '') continue;
    let fields;
    try {
      fields = parseCsvLine(text);
    } catch (error) {
      throw new Error(`line ${number}: ${error.message}`);
    }
    if (!header) { header = fields; continue; }
    if (fields.length !== header.length) {
      throw new Error(`line ${number}: expected ${header.length} fields, got ${fields.length}`);
    }
    yield Object.fromEntries(header.map((name, i) => [name, fields[i]]));
  }
}

/** Groups items into arrays of `size` (the last one may be shorter). */
export const batch = (size) =>
  async function* batchStage(items) {
    let current = [];
    for await (const item of items) {
      current.push(item);
      if (current.length === size) { yield current; current = []; }
    }
    if (current.length > 0) yield current;
  };
