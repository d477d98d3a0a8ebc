// A course walked over MCP from an empty folder to done by an orchestrator that follows state_next's
// next_call wherever it is set, and does a worker's job (writes the artifacts, records the answer)
// only while a worker is on a task: no call is refused, and no answer names a command line.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { listedClient, progressSentTo, textOf } from './mcp-client.ts';
import { COMMANDS } from './commands.ts';
import { mcpTools } from './mcp/tools.ts';
import { ARTIFACTS_BY_PHASE, LESSON_DIRS, write, writeStageArtifact } from './protocol-fixture.ts';
import { readState, tempDir } from './testing.ts';

interface Plan {
  phase: string;
  done: boolean;
  next_step: string;
  next_call: { tool: string; arguments: Record<string, unknown> } | null;
  running: Array<{ task: string; lesson: string | null; phase: string | null; role: string }>;
}

/** CLI words that must not reach an MCP client: a codelabgen command line, or one of its options written as a flag. */
const WORDS = [...new Set(COMMANDS.map((command) => command.name.split(' ')[0]))];
const OPTIONS = [
  ...new Set(
    mcpTools().flatMap((tool) =>
      tool.params.flatMap((param) => ('option' in param.to && param.to.option ? [param.to.option] : [])),
    ),
  ),
];
const CLI_WORDS = new RegExp(
  `codelabgen (?:${WORDS.join('|')})\\b|(?<![\\w-])--(?:course|json|help|${OPTIONS.join('|')})(?![\\w-])`,
);

/** The stage a lesson worker's work completes, from the lesson's stage (a code-fixer's is code). */
const WORK_OF: Record<string, string> = {
  pending: 'spec',
  spec: 'code',
  code: 'code',
  verified: 'readalong',
  readalong: 'notes',
  notes: 'reviewed',
};

/** Lesson 1.2's first code fails its test, so the walk meets a failed verify and a code-fixer. */
function writeFailingCode(root: string, id: string): void {
  writeStageArtifact(root, id, 'code');
  write(root, `${LESSON_DIRS[id]}/main.mjs`, 'export const answer = 41;\n');
}

/** Does what the worker of `task` does: writes its artifacts; returns its status JSON. */
function work(root: string, task: Plan['running'][number]): Record<string, unknown> {
  if (task.lesson === null) {
    ARTIFACTS_BY_PHASE[task.phase as string]!(root);
    return { phase: task.phase, status: 'ok', artifacts: [], notes: `${task.phase} written` };
  }
  const id = task.lesson;
  const lesson = (readState(root).lessons as Record<string, { stage: string; fix_attempts_used: number }>)[id]!;
  const stage = WORK_OF[lesson.stage]!;
  if (stage === 'code' && id === '1.2' && lesson.stage === 'spec') writeFailingCode(root, id);
  else writeStageArtifact(root, id, stage);
  return { lesson: id, status: 'ok', stage, artifacts: [] };
}

test('a course walked over MCP by next_call reaches the end of every phase with no refused call and no CLI words', {
  timeout: 600_000,
}, async (t) => {
  const home = tempDir();
  const root = path.join(home, 'intl');
  const mcp = await listedClient(home, root);
  const refusals = new Map<string, string[]>();
  const followed: string[] = [];
  let phase = 'init';
  const call = async (
    name: string,
    args: Record<string, unknown> = {},
    onprogress?: Parameters<typeof mcp.call>[2],
  ) => {
    const answer = await mcp.call(name, args, onprogress);
    const exit = answer._meta?.['codelabgen/exit_code'];
    assert.notEqual(exit, 3, `${name}: internal error: ${textOf(answer)}`);
    if (exit === 2)
      refusals.set(phase, [...(refusals.get(phase) ?? []), `${name} ${JSON.stringify(args)}: ${textOf(answer)}`]);
    return answer;
  };
  try {
    const init = await call('init', { title: 'The Intl API', runtime: 'custom' });
    assert.equal(init.isError, false, textOf(init));
    write(root, '.codelabgen/config.yaml', 'schema_version: 1\nruntime: custom\ntest_command: [node, --test]\n');
    const phases = ['init'];
    const steps: Array<{ progress: number; total?: number; message?: string }> = [];
    // Only site_build asks for progress (an onprogress gives the call a progressToken).
    const sent = progressSentTo(mcp.client);
    for (let step = 0; step < 300; step += 1) {
      const plan = (await call('state_next')).structuredContent as unknown as Plan;
      if (plan.phase !== phase) {
        phases.push(plan.phase);
        phase = plan.phase;
        // The resources an orchestrator reads are in tool terms too.
        for (const uri of ['codelabgen://next', 'codelabgen://stages'])
          mcp.seen.push(JSON.stringify(await mcp.client.readResource({ uri })));
      }
      if (plan.done) break;
      if (plan.next_call !== null) {
        const { tool, arguments: args } = plan.next_call;
        followed.push(`${phase}: ${tool} ${JSON.stringify(args)}`);
        const answer = await call(tool, args, tool === 'site_build' ? (update) => steps.push(update) : undefined);
        // A failed verify (exit 1) is a result, not a refusal: the next plan sends a code-fixer.
        assert.ok(
          !answer.isError || (tool === 'verify' && answer._meta?.['codelabgen/exit_code'] === 1),
          `${tool}: ${textOf(answer)}`,
        );
        continue;
      }
      // next_call is null only while a worker is on a task: do its job, then record its answer.
      const task = plan.running[0];
      assert.ok(task, `next_call is null at ${phase} with no worker running: ${plan.next_step}`);
      const status = work(root, task);
      assert.equal((await call('status_check', { status })).isError, false);
      const done = await call('state_task_done', { task: task.task, result: status });
      assert.equal(done.isError, false, textOf(done));
    }
    assert.deepEqual(phases, [
      'init',
      'recon',
      'sources',
      'gate_sources',
      'topics',
      'curriculum',
      'gate_plan',
      'scaffold',
      'lessons',
      'assembly',
      'done',
    ]);
    assert.deepEqual(Object.fromEntries(refusals), {}, 'refused calls by phase');
    // The one obvious call was always offered: register, site_build, report, phase workers, verify, a fixer after a failure.
    for (const expected of [
      /^scaffold: register \{\}$/,
      /^assembly: site_build \{\}$/,
      /^assembly: report \{\}$/,
      /^recon: state_task_start \{"phase":"recon","role":"researcher"\}$/,
      /^lessons: verify \{"id":"1\.2","update_state":true\}$/,
      /^lessons: state_set \{"id":"1\.1","stage":"done"\}$/,
    ])
      assert.ok(
        followed.some((line) => expected.test(line)),
        `no ${expected} in:\n${followed.join('\n')}`,
      );
    assert.equal(
      followed.filter((line) => line === 'lessons: state_task_start {"lesson":"1.2"}').length,
      6,
      'five workers and one code-fixer',
    );
    // site_build's progress ends at its total. The call's onprogress sees the updates in order, all
    // but those read together with the result (progressSentTo(), cli/mcp-client.ts).
    assert.deepEqual(
      sent.map((update) => [update.progress, update.total]),
      [
        [1, 5],
        [2, 5],
        [3, 5],
        [4, 5],
        [5, 5],
      ],
    );
    assert.ok(steps.length >= 3, `site_build's onprogress saw ${steps.length} of 5 updates`);
    const fields = (update: { progress: number; total?: number; message?: string }) =>
      [update.progress, update.total, update.message] as const;
    assert.deepEqual(steps.map(fields), sent.slice(0, steps.length).map(fields));
    t.diagnostic(`${mcp.seen.length} answers scanned; ${followed.length} calls made by next_call`);
    const leaks = mcp.seen.filter((text) => CLI_WORDS.test(text));
    assert.deepEqual(
      leaks.map((text) => text.match(CLI_WORDS)![0] + ' in ' + text.slice(0, 300)),
      [],
      'CLI words in MCP answers',
    );
  } finally {
    await mcp.close();
  }
});
