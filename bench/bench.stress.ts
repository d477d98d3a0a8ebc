// Keeps the benchmark harness from rotting (run by `npm run test:stress`, not `npm test`):
// `npm run bench -- --quick --only cli,contention,mcp,scale` must print one JSON document with every
// figure present and no lost update.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const RUN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'run.ts');

test('bench --quick prints one JSON document with the CLI figures', { timeout: 180_000 }, () => {
  const result = spawnSync(process.execPath, [RUN, '--quick', '--only', 'cli,contention,mcp,scale'], {
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  const doc = JSON.parse(result.stdout);
  assert.deepEqual(
    doc.cli.rows.map((row: { command: string }) => row.command),
    ['node -e 0', 'state show --json', 'state next', 'state log', 'state set'],
  );
  assert.ok(doc.cli.rows.every((row: { median_ms: number }) => row.median_ms > 0));
  assert.equal(doc.machine.load_average_at_start.length, 3, 'the load average is part of the figures');
  assert.match(result.stderr, /^load average at start: [\d.]+ [\d.]+ [\d.]+ \(1, 5, 15 min\)/m);
  assert.deepEqual(
    doc.contention.map((row: { writers: number }) => row.writers),
    [1, 4],
  );
  assert.ok(
    doc.contention.every(
      (row: { lost_updates: number; refused: number }) => row.lost_updates === 0 && row.refused === 0,
    ),
  );
  assert.deepEqual(
    doc.mcp.latency.map((row: { tool: string }) => row.tool),
    ['state_next', 'state_log'],
  );
  assert.ok(doc.mcp.latency.every((row: { median_vs_cli: number }) => row.median_vs_cli > 0));
  assert.equal(doc.mcp.clients.clients, 8);
  assert.ok(doc.mcp.clients.lost_updates === 0 && doc.mcp.clients.refused === 0, 'no lost update through MCP');
  assert.ok(doc.scale.rows.length === 4 && typeof doc.scale.once_ms.check === 'number');
});
