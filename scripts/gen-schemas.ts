// Regenerates content-schemas/json/<name>.schema.json (the committed JSON Schema copies) from the
// zod schemas. `npm run schemas` after changing a schema; content-schemas/registry.test.ts fails on drift.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_ENTRIES, toJsonSchema } from '../content-schemas/index.ts';

export const JSON_SCHEMA_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'content-schemas',
  'json',
);

export function renderJsonSchema(name: string): string {
  const entry = SCHEMA_ENTRIES.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`unknown schema ${name}`);
  return `${JSON.stringify(toJsonSchema(entry), null, 2)}\n`;
}

function main(): void {
  mkdirSync(JSON_SCHEMA_DIR, { recursive: true });
  const wanted = new Set(SCHEMA_ENTRIES.map((entry) => `${entry.name}.schema.json`));
  for (const name of readdirSync(JSON_SCHEMA_DIR)) if (!wanted.has(name)) rmSync(path.join(JSON_SCHEMA_DIR, name));
  for (const entry of SCHEMA_ENTRIES)
    writeFileSync(path.join(JSON_SCHEMA_DIR, `${entry.name}.schema.json`), renderJsonSchema(entry.name));
  process.stdout.write(
    `wrote ${SCHEMA_ENTRIES.length} schemas to ${path.relative(process.cwd(), JSON_SCHEMA_DIR) || '.'}\n`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
