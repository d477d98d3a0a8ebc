// Upper-cases a file into another with pipeline(): errors propagate, streams are destroyed,
// and a partially written output file is removed.
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createUpperCase } from './upper-case.mjs';

export async function upperCaseFile(inputPath, outputPath, { signal, failAfter } = {}) {
  try {
    await pipeline(
      createReadStream(inputPath),
      createUpperCase({ failAfter }),
      createWriteStream(outputPath),
      { signal },
    );
  } catch (error) {
    await rm(outputPath, { force: true }); // never leave a half-written file behind
    throw error;
  }
}
