import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { loadCsv } from '../src/etl.mjs';
import { createFakeDb } from '../src/fake-db.mjs';

const CSV = [
  'id,name,city',
  '1,Ada,London',
  '2,"Hopper, Grace",New York',
  '3,Linus,Helsinki',
  '4,Margaret,Boston',
  '5,Tim,Genève',
].join('\n');

test('loads every record, in batches of the given size', async () => {
  const db = createFakeDb();
  const count = await loadCsv(Readable.from([CSV]), db, { batchSize: 2 });
  assert.equal(count, 5);
  assert.deepEqual(db.batches.map((rows) => rows.length), [2, 2, 1]);
  assert.deepEqual(db.rows[1], { id: '2', name: 'Hopper, Grace', city: 'New York' });
  assert.deepEqual(db.rows.map((row) => row.id), ['1', '2', '3', '4', '5']);
});

test('tolerates CRLF line endings, a trailing newline and blank lines', async () => {
  const db = createFakeDb();
  const text = 'id,name\r\n1,Ada\r\n\r\n2,Grace\r\n';
  assert.equal(await loadCsv(Readable.from([text]), db), 2);
  assert.deepEqual(db.rows, [{ id: '1', name: 'Ada' }, { id: '2', name: 'Grace' }]);
});

test('a bad row rejects with its line number and stops the load there', async () => {
  const db = createFakeDb();
  const text = 'id,name\n1,Ada\n2,Grace\n3,Linus,EXTRA\n4,Tim\n';
  await assert.rejects(loadCsv(Readable.from([text]), db, { batchSize: 2 }), {
    message: 'line 4: expected 2 fields, got 3',
  });
  assert.deepEqual(db.rows.map((row) => row.id), ['1', '2']); // row 4 was never inserted
});

test('never has more than one insert in flight (backpressure reaches the source)', async () => {
  const db = createFakeDb({ latencyMs: 2 });
  const rows = Array.from({ length: 200 }, (_, i) => `${i},name-${i}`);
  const count = await loadCsv(Readable.from([['id,name', ...rows].join('\n')]), db, { batchSize: 25 });
  assert.equal(count, 200);
  assert.equal(db.batches.length, 8);
  assert.equal(db.maxInFlight, 1);
});

test('reads a file whose lines and characters are split across tiny chunks', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'streams-2.3-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'people.csv');
  await writeFile(file, CSV);
  const db = createFakeDb();
  assert.equal((Buffer.from(CSV).indexOf(0xc3) + 1) % 7, 0); // a 7-byte chunk ends inside "è"
  const input = createReadStream(file, { highWaterMark: 7 });
  assert.equal(await loadCsv(input, db, { batchSize: 10 }), 5);
  assert.equal(db.rows[4].city, 'Genève');
});

test('an aborted load rejects with AbortError', async () => {
  const db = createFakeDb();
  const signal = AbortSignal.abort();
  await assert.rejects(loadCsv(Readable.from([CSV]), db, { signal }), { name: 'AbortError' });
  assert.deepEqual(db.batches, []);
});
