// The MCP prompts of the worker roles serve the text of `codelabgen brief` in tool terms: a server
// started without --course briefs the course a prompt's `course` argument names (issue 35.4).
import { ROLES } from '../content-schemas/index.ts';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { inMcpTerms } from './mcp/brief-terms.ts';
import { courseAt, courseWithLessons, ok } from './protocol-fixture.ts';
import { CLI, scratchDir } from './testing.ts';

function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'CODELABGEN_COURSE' && key !== 'CODELABGEN_TEST_FAULT') env[key] = value;
  return { ...env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '10' };
}

/** A client of a server started with no --course, in an empty folder. */
async function connectWithoutCourse(): Promise<Client> {
  const client = new Client({ name: 'codelabgen-test', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: scratchDir('codelabgen-brief-mcp-'),
      env: serverEnv(),
      stderr: 'ignore',
    }),
  );
  return client;
}

const textOf = (prompt: { messages: Array<{ content: unknown }> }) =>
  (prompt.messages[0]!.content as { text: string }).text;

test("each role's prompt is the CLI's brief in tool terms, for the course its course argument names", {
  timeout: 120_000,
}, async () => {
  const root = courseWithLessons({ '1.1': 'notes' });
  const recon = courseAt('recon');
  const client = await connectWithoutCourse();
  try {
    await client.listTools(); // hosts list tools first
    const cases: Array<{ name: string; args: Record<string, string>; course: string; cli: string[] }> = [
      ...['example-designer', 'code-author', 'code-fixer', 'readalong-writer', 'notes-writer'].map((name) => ({
        name,
        args: { lesson: '1.2' },
        course: root,
        cli: [name, '1.2'],
      })),
      { name: 'lesson-reviewer', args: { lesson: '1.1' }, course: root, cli: ['lesson-reviewer', '1.1'] },
      { name: 'researcher', args: {}, course: recon, cli: ['researcher'] },
      { name: 'source-finder', args: {}, course: recon, cli: ['source-finder'] },
      { name: 'topic-extractor', args: {}, course: recon, cli: ['topic-extractor'] },
      { name: 'curriculum-designer', args: {}, course: recon, cli: ['curriculum-designer'] },
    ];
    for (const { name, args, course, cli } of cases) {
      const served = textOf(await client.getPrompt({ name, arguments: { ...args, course } }));
      const printed = ok(course, 'brief', ...cli).replace(/\n$/, '');
      assert.equal(served, inMcpTerms(printed, course), `${name}: the CLI's brief in tool terms`);
      assert.ok(!/codelabgen [a-z]/.test(served), `${name}: no command line over MCP:\n${served}`);
      assert.ok(!served.includes('--course'), `${name}: the course is an argument over MCP`);
      assert.ok(served.includes(`give "course": ${JSON.stringify(course)} to every tool call below`), name);
    }
    const fixer = textOf(await client.getPrompt({ name: 'code-fixer', arguments: { lesson: '1.2', course: root } }));
    assert.match(fixer, /the orchestrator runs verify \{"id":"1\.2","update_state":true\} first/);
    // Without a course argument, a server with no --course has no course to brief.
    await assert.rejects(client.getPrompt({ name: 'code-author', arguments: { lesson: '1.2' } }), /no course found/);
    await assert.rejects(
      client.getPrompt({ name: 'code-author', arguments: { lesson: '7.7', course: root } }),
      /unknown lesson "7\.7"/,
    );
    // A refusal names the prompt and its arguments, never the command line.
    await assert.rejects(
      client.getPrompt({ name: 'researcher', arguments: { phase: 'scaffold', course: recon } }),
      (error: Error) => {
        assert.match(
          error.message,
          /the prompt researcher \{"phase":"scaffold"\}: phase workers write the artifacts of/,
        );
        assert.match(
          error.message,
          /the orchestrator runs register {} in scaffold, and site_build {} and report {} in assembly/,
        );
        assert.ok(!/--phase|codelabgen /.test(error.message), error.message);
        return true;
      },
    );
    const orchestrate = textOf(await client.getPrompt({ name: 'orchestrate' }));
    assert.ok(!/codelabgen (state|verify|status|register|site|report)\b/.test(orchestrate), orchestrate);
    assert.match(orchestrate, /state_task_start \{"lesson":"1\.2"\}/);
  } finally {
    await client.close();
  }
});

test('the prompts are the orchestrator and one per worker role', { timeout: 60_000 }, async () => {
  const client = await connectWithoutCourse();
  try {
    const prompts = (await client.listPrompts()).prompts;
    assert.deepEqual(
      prompts.map((prompt) => prompt.name),
      ['orchestrate', ...ROLES],
    );
    for (const prompt of prompts.slice(1))
      assert.ok(
        prompt.arguments?.some((argument) => argument.name === 'course' && argument.required !== true),
        `${prompt.name} takes an optional course`,
      );
  } finally {
    await client.close();
  }
});
