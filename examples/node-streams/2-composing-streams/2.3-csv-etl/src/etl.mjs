// The whole ETL: read CSV from any readable, insert records into a database in batches.
import { pipeline } from 'node:stream/promises';
import { batch, parseRecords, splitLines } from './stages.mjs';

/** Loads CSV from `input` into `db` (anything with `async insertMany(rows)`); returns the row count. */
export async function loadCsv(input, db, { batchSize = 100, signal } = {}) {
  return pipeline(
    input,
    splitLines,
    parseRecords,
    batch(batchSize),
    async function insertBatches(batches) {
      let count = 0;
      for await (const rows of batches) {
        await db.insertMany(rows); // the next batch is not read until this one is stored
        count += rows.length;
      }
      return count;
    },
    { signal },
  );
}
