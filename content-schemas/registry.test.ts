// Schema drift: the committed JSON Schema copies (content-schemas/json/) must equal what the zod
// schemas generate. Regenerate with `npm run schemas`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { JSON_SCHEMA_DIR, renderJsonSchema } from '../scripts/gen-schemas.ts';
import { SCHEMA_ENTRIES, SCHEMA_NAMES, findSchemaEntry, toJsonSchema } from './index.ts';

for (const entry of SCHEMA_ENTRIES) {
  test(`the committed ${entry.name}.schema.json matches the zod schema`, () => {
    const file = path.join(JSON_SCHEMA_DIR, `${entry.name}.schema.json`);
    assert.ok(existsSync(file), `${file} is missing; run "npm run schemas"`);
    const committed = readFileSync(file, 'utf8');
    assert.equal(
      committed,
      renderJsonSchema(entry.name),
      `content-schemas/json/${entry.name}.schema.json drifted from the zod schema; run "npm run schemas" and commit it`,
    );
  });
}

test('no committed JSON Schema is left for a schema that no longer exists', () => {
  const extra = readdirSync(JSON_SCHEMA_DIR).filter(
    (name) => !SCHEMA_NAMES.includes(name.replace(/\.schema\.json$/, '')),
  );
  assert.deepEqual(extra, [], 'stale files in content-schemas/json; run "npm run schemas"');
});

test('every protocol data file has a schema, exported as draft 2020-12 with an id and title', () => {
  const required = [
    'config',
    'source',
    'topic',
    'curriculum',
    'lesson-spec',
    'run-result',
    'glossary-entry',
    'review',
    'worker-status',
    'state',
    'event',
    'task',
  ];
  for (const name of required) {
    const entry = findSchemaEntry(name);
    assert.ok(entry, `schema ${name} is missing from the registry`);
    const schema = toJsonSchema(entry);
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(schema.$id, `https://codelabgen.dev/schemas/${name}.schema.json`);
    assert.equal(schema.title, name);
  }
});

test('every top-level field of an object schema carries a description', () => {
  const undescribed: string[] = [];
  for (const entry of SCHEMA_ENTRIES) {
    const properties = (toJsonSchema(entry).properties ?? {}) as Record<string, { description?: string }>;
    for (const [field, property] of Object.entries(properties))
      if (!property.description) undescribed.push(`${entry.name}.${field}`);
  }
  assert.deepEqual(undescribed, []);
});
