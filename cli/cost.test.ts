// What a generation costs, through the real CLI and MCP server: a worker status's `usage` recorded
// with its task (lesson and phase tasks), refused when malformed, summed by `report`, and the
// spending budgets of config.yaml: once used up, `state task start` is refused and `state next` says so.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { courseAt, ok, readJson, refused } from './protocol-fixture.ts';
import { CLI, cli, removeDir } from './testing.ts';

const BUDGETS = 'budgets: { fix_attempts: 3, review_rounds: 2, parallel: 2, cost_usd: 1.5 }\n';
const root = courseAt('lessons', BUDGETS);
const recon = courseAt('recon');
after(() => {
  removeDir(path.dirname(root));
  removeDir(path.dirname(recon));
});

const usage = {
  model: 'claude-sonnet-4',
  input_tokens: 1200,
  output_tokens: 800,
  cache_read_tokens: 30_000,
  cost_usd: 0.75,
  seconds: 95,
};
const status = (lesson: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ lesson, status: 'ok', stage: 'spec', artifacts: [], usage, ...extra });

test("a worker status's usage is recorded with its task, a lesson's and a phase's", () => {
  const task = ok(root, 'state', 'task', 'start', '1.1').trim();
  const done = JSON.parse(
    cli(['state', 'task', 'done', task, '--result', '-', '--json'], { cwd: root, input: `Done.\n${status('1.1')}` })
      .stdout,
  );
  assert.deepEqual(done.task.result.usage, usage);
  const phaseTask = ok(recon, 'state', 'task', 'start', '--phase', 'recon', '--role', 'researcher').trim();
  const phaseUsage = { input_tokens: 10, output_tokens: 5, cost_usd: 0.01 };
  const result = cli(['state', 'task', 'done', phaseTask, '--result', '-'], {
    cwd: recon,
    input: JSON.stringify({ phase: 'recon', status: 'ok', artifacts: [], usage: phaseUsage }),
  });
  assert.equal(result.code, 0, result.stderr);
  const listed = JSON.parse(ok(recon, 'state', 'task', 'list', '--json')).tasks;
  assert.deepEqual(listed[0].result.usage, phaseUsage);
});

test('a malformed usage is refused with the field named, and nothing changes', () => {
  const task = ok(root, 'state', 'task', 'start', '2.1').trim();
  refused(
    root,
    ['state', 'task', 'done', task, '--result', '-'],
    /^error: \(stdin\): usage\.input_tokens: Too small: expected number to be >=0, got -5/,
    status('2.1', { usage: { input_tokens: -5 } }),
  );
  refused(
    root,
    ['state', 'task', 'done', task, '--result', '-'],
    /^error: \(stdin\): usage: unknown field "tokens"$/,
    status('2.1', { usage: { tokens: 5 } }),
  );
  const done = cli(['state', 'task', 'done', task, '--result', '-'], { cwd: root, input: status('2.1') });
  assert.equal(done.code, 0, done.stderr);
});

test('once budgets.cost_usd is used up a new task is refused, naming the budget and how to raise it', () => {
  // $0.75 twice: the $1.50 budget is used up.
  const result = refused(
    root,
    ['state', 'task', 'start', '1.2'],
    /^error: budgets\.cost_usd is used up: \$1\.50 spent of \$1\.50: no new task starts$/,
  );
  assert.match(
    result.stderr,
    /^hint: raise it in \.codelabgen\/config\.yaml \(budgets: cost_usd: 2\.25, for instance\) if the user agrees to spend more$/m,
  );
  const next = JSON.parse(ok(root, 'state', 'next'));
  assert.deepEqual(
    [next.budget_used_up.budget, next.budget_used_up.limit, next.budget_used_up.spent],
    ['cost_usd', 1.5, 1.5],
  );
  assert.match(
    next.next_step,
    /^budgets\.cost_usd is used up: \$1\.50 spent of \$1\.50: no task starts until the user raises it; /,
  );
});

test('report sums the usage: in total, per phase, role and lesson', () => {
  ok(root, 'report');
  const written = readJson(root, '.codelabgen/report.json') as { cost: Record<string, unknown> };
  assert.equal(written.cost.cost_usd, 1.5);
  assert.equal(written.cost.tokens, 2 * 32_000);
  assert.deepEqual(
    (written.cost.by_lesson as { lesson: string; cost_usd: number }[]).map((row) => [row.lesson, row.cost_usd]),
    [
      ['1.1', 0.75],
      ['2.1', 0.75],
    ],
  );
});

test("MCP's state_task_done takes the usage with the worker's status", async () => {
  const client = new Client({ name: 'codelabgen-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--course', recon],
      cwd: recon,
      stderr: 'ignore',
    }),
  );
  try {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as {
        structuredContent?: { task: { id: string; result: unknown } };
        isError?: boolean;
      };
    const started = await call('state_task_start', { phase: 'recon', role: 'researcher' });
    const id = started.structuredContent!.task.id;
    const result = { phase: 'recon', status: 'ok', artifacts: [], usage: { output_tokens: 42, cost_usd: 0.02 } };
    const done = await call('state_task_done', { task: id, result });
    assert.deepEqual(done.structuredContent?.task.result, result);
  } finally {
    await client.close();
  }
});
