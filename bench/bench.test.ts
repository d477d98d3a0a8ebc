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
  assert.match(
    result.stderr,
    /^error: --only nope: choose from check,cli,contention,dev,mcp,progress,scale,site,side-by-side\n$/,
  );
});

test('bench --help prints the usage and runs nothing; an unknown argument is refused before any run', () => {
  const help = spawnSync(process.execPath, [RUN, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(
    help.stdout,
    /^usage: node bench\/run\.ts \[--quick\] \[--only check,cli,contention,dev,mcp,progress,scale,site,side-by-side\]\n/,
  );
  assert.equal(help.stderr, '', 'no load average: nothing ran');
  const stray = spawnSync(process.execPath, [RUN, '--quick', '--onyl', 'cli'], { encoding: 'utf8' });
  assert.equal(stray.status, 2);
  assert.match(stray.stderr, /^error: unknown argument --onyl: the options are --quick and --only PARTS\n$/);
});
