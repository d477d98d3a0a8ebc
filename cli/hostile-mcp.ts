// The MCP part of the hostile-course fuzzer (cli/hostile-course.test.ts): `codelabgen mcp` on stdio in a
// hostile tree, every read tool and the state tools a worker calls with hostile ids, paths and data, every
// resource (listed, and the templates with hostile ids) and every prompt. Returns the problems: a JSON-RPC
// internal error (-32603) or an error code the spec does not allow, an internal error in a tool (exit 3),
// a server that crashed or missed its deadline, and any answer holding the canary of the folder outside.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { outsideContent } from './hostile-trees.ts';
import { serverEnv } from './mcp-client.ts';
import { LESSON_DIRS } from './protocol-fixture.ts';
import { CLI } from './testing.ts';

/** Each request's hard deadline (ms): the CLI part gives a command 90 s; a request here does less. */
export const REQUEST_DEADLINE_MS = 60_000;
/** -32002: resource not found (MCP 2025-11-25); -32600..-32602: an invalid request, method or params. */
const ALLOWED_CODES = new Set([-32002, ErrorCode.InvalidRequest, ErrorCode.MethodNotFound, ErrorCode.InvalidParams]);

/** One of `items`, chosen by the seeded `random`. */
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Lesson ids a client can send: the course's, unknown ones, paths, escapes, prototype keys, a long one. */
export const HOSTILE_IDS = [
  '1.2',
  '1.1',
  '9.9',
  '../../outside',
  '1.2/../../..',
  '/etc/passwd',
  '1.2\u001b]0;pwn\u0007',
  '__proto__',
  'constructor',
  '1.2\n1.1',
  '%2e%2e%2f%2e%2e',
  'x'.repeat(5000),
  '',
];

/** Worker answers: text naming files outside, a status listing them as artifacts, escapes, a huge note. */
function hostileStatuses(outside: string): unknown[] {
  const secret = path.join(outside, 'secret.txt');
  return [
    { lesson: '1.2', status: 'ok', stage: 'code', artifacts: [`${LESSON_DIRS['1.2']}/main.mjs`] },
    { lesson: '1.2', status: 'ok', stage: 'code', artifacts: ['../outside/secret.txt', secret, '/etc/passwd'] },
    `Done.\n\n\`\`\`json\n{"lesson":"1.2","status":"ok","stage":"code","artifacts":["${secret}"]}\n\`\`\`\n`,
    { lesson: '__proto__', status: 'needs-user', stage: 'code', notes: '\u001b]52;c;cHdu\u0007 \u009b2J' },
    { lesson: '1.2', status: 'failed', stage: 'code', notes: 'n'.repeat(3000) },
    secret,
    '',
  ];
}

/** Courses a client can name: beside the course, a file, the lesson folder (maybe a link out), the root. */
function hostileCourses(root: string, outside: string): string[] {
  return ['../outside', outside, path.join(outside, 'secret.txt'), path.join(root, LESSON_DIRS['1.2']!), '/'];
}

type Call = { tool: string; args: Record<string, unknown> };

/** The tool calls of one tree: each read tool plainly and with hostile values, then a worker's state calls. */
export function toolCalls(root: string, outside: string, random: () => number): Call[] {
  const ids = () => [pick(random, HOSTILE_IDS), pick(random, HOSTILE_IDS)];
  const calls: Call[] = [
    { tool: 'state_show', args: {} },
    { tool: 'state_stages', args: {} },
    { tool: 'state_next', args: {} },
    { tool: 'state_task_list', args: {} },
    { tool: 'schema_list', args: {} },
    { tool: 'schema_show', args: { name: 'lesson-spec' } },
    {
      tool: 'schema_show',
      args: { name: pick(random, ['../../outside/secret', '__proto__', '\u001b[2J', 'x'.repeat(300)]) },
    },
    { tool: 'conventions', args: {} },
    { tool: 'conventions', args: { topic: pick(random, ['readalong', '../secret', 'constructor', '\u0000']) } },
    { tool: 'check', args: {} },
    ...hostileCourses(root, outside).map((course) => ({
      tool: pick(random, ['state_show', 'state_next', 'check']),
      args: { course },
    })),
    ...hostileStatuses(outside).map((status) => ({ tool: 'status_check', args: { status } })),
    { tool: 'state_task_start', args: { lesson: '1.2' } },
    ...ids().map((lesson) => ({
      tool: 'state_task_start',
      args: { lesson, role: pick(random, ['code-author', '../x', '']) },
    })),
    ...['t1', 't2', pick(random, ['t0', '../t1', 't1\u001b[2J', '__proto__'])].map((task) => ({
      tool: 'state_task_heartbeat',
      args: { task },
    })),
    {
      tool: 'state_task_done',
      args: { task: 't1', result: pick(random, hostileStatuses(outside)), note: 'done \u001b]0;x\u0007' },
    },
    { tool: 'state_task_fail', args: { task: pick(random, ['t2', 't9', '__proto__']), note: 'n'.repeat(2000) } },
    {
      tool: 'state_log',
      args: {
        kind: pick(random, ['source-unreachable', '\u001b]0;pwn\u0007', '__proto__']),
        lesson: pick(random, HOSTILE_IDS).slice(0, 64),
        data: {
          ...(JSON.parse('{"__proto__":"y"}') as object),
          url: `file://${outside}/secret.txt`,
          'a.b': '\u009b2J',
        },
      },
    },
    ...ids().map((id) => ({ tool: 'state_set', args: { id: id.slice(0, 64), stage: 'readalong' } })),
    { tool: 'state_set', args: { id: '1.2', stage: 'notes' } },
    { tool: 'state_set', args: { id: 1.2, stage: 'notes', course: pick(random, hostileCourses(root, outside)) } },
    {
      tool: 'state_block',
      args: { id: pick(random, HOSTILE_IDS).slice(0, 64), reason: `see ${outside}/secret.txt \u001b[2J` },
    },
  ];
  return calls;
}

type Completion = Parameters<Client['complete']>[0];

/** Completions of a prompt's and a template's lesson, in the course and in hostile `course` arguments. */
export function completions(root: string, outside: string, random: () => number): Completion[] {
  const course = pick(random, hostileCourses(root, outside));
  return [
    { ref: { type: 'ref/prompt', name: 'code-author' }, argument: { name: 'lesson', value: '1' } },
    {
      ref: { type: 'ref/prompt', name: 'code-author' },
      argument: { name: 'lesson', value: pick(random, HOSTILE_IDS) },
      context: { arguments: { course } },
    },
    {
      ref: { type: 'ref/resource', uri: 'codelabgen://lesson/{id}' },
      argument: { name: 'id', value: pick(random, HOSTILE_IDS) },
    },
    {
      ref: { type: 'ref/prompt', name: pick(random, ['researcher', '__proto__', '../x']) },
      argument: { name: 'phase', value: '' },
    },
  ];
}

/** The resource URIs to read beyond the listed ones: the templates filled with hostile ids. */
export function templateUris(random: () => number): string[] {
  const ids = [pick(random, HOSTILE_IDS), pick(random, HOSTILE_IDS), '1.1', '1.2'];
  const runs = ['1', '2', '0', '99999999', '../../../../outside/secret', '1/../../../../etc/passwd'];
  return [
    ...ids.map((id) => `codelabgen://lesson/${encodeURIComponent(id)}`),
    ...ids.flatMap((id) => [`codelabgen://lesson/${encodeURIComponent(id)}/run/${pick(random, runs)}`]),
    `codelabgen://lesson/1.1/run/${encodeURIComponent(pick(random, runs))}`,
    'codelabgen://lesson/..%2F..%2Fetc%2Fpasswd/run/1',
    'codelabgen://lesson/1.1/run/1/../../../../etc/passwd',
    `codelabgen://conventions/${encodeURIComponent(pick(random, ['readalong', '../../secret', '__proto__']))}`,
    `codelabgen://schema/${encodeURIComponent(pick(random, ['state', '../../../outside/secret', 'constructor']))}`,
    'codelabgen://report/../../outside/secret.txt',
    'file:///etc/passwd',
  ];
}

/** Thrown to end a session whose server hung or crashed: every later request would fail the same way. */
class SessionOver extends Error {}

interface Answer {
  what: string;
  problem: string | null;
  text: string;
}

/** What a request's failure says about the server: null for a refusal the spec allows. */
function failureProblem(error: unknown): string {
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) return `no answer within ${REQUEST_DEADLINE_MS / 1000} s (a hang)`;
    if (error.code === ErrorCode.ConnectionClosed) return 'the server went away (a crash)';
    if (error.code === ErrorCode.InternalError) return `a JSON-RPC internal error (-32603): ${error.message}`;
    if (/does not match the tool's output schema/.test(error.message))
      return `an answer off its outputSchema: ${error.message}`;
    if (ALLOWED_CODES.has(error.code)) return '';
    return `error code ${error.code}: ${error.message}`;
  }
  return `a failure that is no JSON-RPC error: ${String(error)}`;
}

async function ask(what: string, request: () => Promise<unknown>): Promise<Answer> {
  try {
    const result = await request();
    const meta = (result as { _meta?: Record<string, unknown> })._meta;
    const text = JSON.stringify(result);
    const internal = meta?.['codelabgen/exit_code'] === 3;
    return { what, problem: internal ? `an internal error (exit 3): ${text.slice(0, 1500)}` : null, text };
  } catch (error) {
    const problem = failureProblem(error);
    return { what, problem: problem === '' ? null : problem, text: String((error as Error).message ?? error) };
  }
}

/**
 * Runs the MCP server in `root` (the course), sends every request, and returns the problems, each
 * naming its request. `outside` is the folder beside the course whose files hold CANARY (cli/hostile-trees.ts).
 */
export async function mcpProblems(root: string, outside: string, random: () => number): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    cwd: root,
    env: serverEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'codelabgen-hostile', version: '1' });
  const options = { timeout: REQUEST_DEADLINE_MS, maxTotalTimeout: REQUEST_DEADLINE_MS };
  const answers: Answer[] = [];
  /** Sends one request and keeps its answer; after a hang or a crash the session is over. */
  const note = async (what: string, request: () => Promise<unknown>): Promise<Answer> => {
    const answer = await ask(what, request);
    answers.push(answer);
    if (answer.problem !== null && /\((a hang|a crash)\)$/.test(answer.problem)) throw new SessionOver();
    return answer;
  };
  const problems: string[] = [];
  try {
    await client.connect(transport, options);
    await note('tools/list', () => client.listTools(undefined, options));
    // Subscribed first, so that the tail of the event log runs while the state tools change the course.
    for (const uri of ['codelabgen://state', `codelabgen://lesson/${encodeURIComponent(pick(random, HOSTILE_IDS))}`])
      await note(`resources/subscribe ${uri.slice(0, 200)}`, () => client.subscribeResource({ uri }, options));
    for (const request of completions(root, outside, random))
      await note(`completion/complete ${JSON.stringify(request).slice(0, 200)}`, () =>
        client.complete(request, options),
      );
    for (const call of toolCalls(root, outside, random))
      await note(`tools/call ${call.tool} ${JSON.stringify(call.args).slice(0, 200)}`, () =>
        client.callTool({ name: call.tool, arguments: call.args }, undefined, options),
      );
    const resources = await note('resources/list', () => client.listResources(undefined, options));
    await note('resources/templates/list', () => client.listResourceTemplates(undefined, options));
    const listedUris = resources.problem === null ? uris(resources.text) : [];
    for (const uri of [...listedUris, ...templateUris(random)])
      await note(`resources/read ${uri.slice(0, 200)}`, () => client.readResource({ uri }, options));
    const prompts = await note('prompts/list', () => client.listPrompts(undefined, options));
    for (const name of promptNames(prompts.text))
      for (const lesson of ['1.2', pick(random, HOSTILE_IDS)])
        await note(`prompts/get ${name} ${JSON.stringify(lesson).slice(0, 80)}`, () =>
          client.getPrompt({ name, arguments: { lesson } }, options),
        );
    await note('resources/unsubscribe codelabgen://state', () =>
      client.unsubscribeResource({ uri: 'codelabgen://state' }, options),
    );
  } catch (error) {
    if (!(error instanceof SessionOver))
      problems.push(`mcp: the session failed: ${(error as Error).message}\n${stderr.slice(-1500)}`);
  } finally {
    await client.close();
  }
  for (const answer of answers) {
    if (answer.problem !== null) problems.push(`mcp ${answer.what}: ${answer.problem}`);
    for (const leaked of outsideContent(answer.text)) problems.push(`mcp ${answer.what}: answered with ${leaked}`);
  }
  for (const leaked of outsideContent(stderr)) problems.push(`mcp: the server printed ${leaked} on stderr`);
  return problems;
}

function uris(listText: string): string[] {
  try {
    return (JSON.parse(listText) as { resources: Array<{ uri: string }> }).resources.map((resource) => resource.uri);
  } catch {
    return [];
  }
}

function promptNames(listText: string): string[] {
  try {
    return (JSON.parse(listText) as { prompts: Array<{ name: string }> }).prompts.map((prompt) => prompt.name);
  } catch {
    return [];
  }
}
