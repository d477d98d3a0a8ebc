// The benchmark harness's argument check; its smoke run (every figure present, no lost update) is
// in bench.stress.ts, run by `npm run test:stress`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const RUN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'run.ts');

test('bench refuses an unknown --only part', () => {
  const result = spawnSync(process.execPath, [RUN, '--only', 'nope'], { encoding: 'utf8' });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /^error: --only nope: choose from cli,contention,mcp,progress,scale,site\n$/);
});
