// The MCP server: the tools of cli/mcp/tools.ts, resources for what agents read often, and the
// `orchestrate` prompt (docs/agents.md). Every call runs its command module afresh (cli/mcp/invoke.ts):
// the course is re-read each time, so a CLI user and MCP clients can work on one course at once.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CallToolRequestSchema, CompleteRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, RootsListChangedNotificationSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, type CallToolResult, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { printable, resolveCourse, TASK_PHASES } from '../../pipeline/state-commands.ts';
import { EXIT } from '../exit-codes.ts';
import { PHASES, SCHEMA_NAMES, STAGES } from '../../content-schemas/index.ts';
import { ARTIFACTS, CONVENTION_TOPICS, getOwn, STAGE_TABLE } from '../../pipeline/index.ts';
import agentsDoc from '../../docs/agents.md';
import { COMMANDS } from '../commands.ts';
import type { ProgressUpdate } from '../context.ts';
import { invoke, type Outcome } from './invoke.ts';
import { changedResources, tailEvents, type LogTail } from './live.ts';
import { checkArguments, toInvocation } from './tool-arguments.ts';
import { inputJsonSchema, outputJsonSchema } from './tool-schemas.ts';
import { inToolTerms, type ToolCall } from './tool-terms.ts';
import type { McpTool } from './tool-types.ts';
import { mcpTools, toolOf } from './tools.ts';

export interface ServerOptions {
  /** --course of `codelabgen mcp`, absolute; else a call's course is its `course` argument, $CODELABGEN_COURSE or the client's first root. */
  course: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** Counts calls in flight, so a shutdown can wait for them. */
  track<T>(call: Promise<T>): Promise<T>;
  /** Aborted when the client goes away: every call in flight is cancelled as by notifications/cancelled. */
  closing: AbortSignal;
}

const INSTRUCTIONS = 'codelabgen keeps the state of a course generation. Start with the state_next tool (or the codelabgen://next resource) and follow its next_step; the orchestrate prompt has the whole loop. Every tool is one CLI command: a refusal is a tool error whose text is the `error: ...` line (nothing changed), and _meta["codelabgen/exit_code"] is the CLI exit code.';

/**
 * A command's outcome as a tool result: its stdout (the --json document, also as structuredContent),
 * then warnings; refusals are errors. Command lines in the text are written as tool calls.
 */
export function toolResult(outcome: Outcome, transform?: (document: Record<string, unknown>) => Record<string, unknown>): CallToolResult {
  let stdout = outcome.stdout;
  let document: Record<string, unknown> | undefined;
  if (stdout.trimStart().startsWith('{')) {
    try {
      document = JSON.parse(stdout) as Record<string, unknown>;
    } catch {
      document = undefined;
    }
  }
  if (document !== undefined && transform) {
    document = transform(document);
    stdout = JSON.stringify(document, null, 2);
  }
  const error = outcome.error === null ? null : inToolTerms(outcome.error);
  const content: CallToolResult['content'] = [];
  if (stdout !== '') content.push({ type: 'text', text: stdout.trimEnd() });
  if (error !== null) content.push({ type: 'text', text: error });
  if (outcome.stderr !== '') content.push({ type: 'text', text: inToolTerms(outcome.stderr.trimEnd()) });
  if (content.length === 0) content.push({ type: 'text', text: '' });
  const lines = error?.split('\n') ?? [];
  const structuredContent = document ?? (error !== null
    ? { error: lines.find((line) => line.startsWith('error: '))?.slice('error: '.length) ?? error, hints: lines.filter((line) => line.startsWith('hint: ')).map((line) => line.slice('hint: '.length)), exit_code: outcome.exitCode }
    : { text: stdout });
  return { content, structuredContent, isError: outcome.exitCode !== 0, _meta: { 'codelabgen/exit_code': outcome.exitCode } };
}

/** Every string of a document with its command lines in tool terms (a lesson's action, a stage's next step). */
function inToolTermsDeep<T>(value: T): T {
  if (typeof value === 'string') return inToolTerms(value) as T;
  if (Array.isArray(value)) return value.map(inToolTermsDeep) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inToolTermsDeep(item)])) as T;
  return value;
}

/** `state next` over MCP: in tool terms (next_step, each lesson's action), with next_call, the call that takes the next step. */
function withNextCall(plan: Record<string, unknown>): Record<string, unknown> {
  const next = plan.next_phase as string | null;
  const lessons = plan.lessons as Array<{ lesson: string }>;
  const blocked = plan.blocked as unknown[];
  const missing = (plan.actions as Array<{ done: boolean }>).some((action) => !action.done);
  let nextCall: ToolCall | null = null;
  if (plan.done === true || (plan.interrupted as unknown[]).length > 0 || (plan.prerequisites_changed as unknown[]).length > 0) nextCall = null;
  else if (lessons.length > 0) nextCall = { tool: 'state_task_start', arguments: { lesson: lessons[0]!.lesson } };
  else if (next !== null && !missing && !(plan.phase === 'lessons' && blocked.length > 0 && plan.ready !== true)) nextCall = { tool: 'state_phase', arguments: plan.approval_needed === true ? { next, approved: true } : { next } };
  return { ...inToolTermsDeep(plan), next_call: nextCall };
}

function commandNamed(name: string): McpTool {
  const spec = COMMANDS.find((command) => command.name === name);
  if (!spec) throw new Error(`no command "${name}" in the table`);
  return toolOf(spec);
}

export function createServer(options: ServerOptions): McpServer {
  const server = new McpServer({ name: 'codelabgen', version: options.version }, { instructions: INSTRUCTIONS, capabilities: { logging: {} } });
  let roots: Promise<string[]> | null = null;
  /** The client's roots that are folders (file: URIs), asked once and again after roots/list_changed. */
  const clientRoots = (): Promise<string[]> => {
    if (!server.server.getClientCapabilities()?.roots) return Promise.resolve([]);
    roots ??= server.server
      .listRoots(undefined, { timeout: 10_000 })
      .then((answer) => answer.roots.filter((root) => root.uri.startsWith('file:')).map((root) => fileURLToPath(root.uri)))
      .catch(() => []);
    return roots;
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    roots = null;
  });
  /** A call's course: its `course` argument, else the server's --course, else $CODELABGEN_COURSE, else the client's first root. */
  const courseOf = async (args: Record<string, unknown>): Promise<string | undefined> => {
    if (typeof args.course === 'string') return path.resolve(options.cwd, args.course);
    if (options.course !== undefined) return options.course;
    if (options.env.CODELABGEN_COURSE) return path.resolve(options.cwd, options.env.CODELABGEN_COURSE);
    return (await clientRoots())[0];
  };
  const run = async (tool: McpTool, args: Record<string, unknown>, progress?: (update: ProgressUpdate) => void, signal?: AbortSignal, values: Record<string, string> = {}) => {
    const invocation = toInvocation(tool, args, await courseOf(args));
    Object.assign(invocation.values, values);
    return options.track(invoke(tool.command, invocation, { cwd: options.cwd, env: options.env, progress, signal: signal ? AbortSignal.any([signal, options.closing]) : options.closing }));
  };

  /**
   * The call's arguments with every lesson id given as a number (`1.2`) as the course's lesson of
   * that number ("1.2"; "1.10" when only that one reads as 1.1), or the refusal when two lessons do.
   */
  const lessonIdsAsText = async (tool: McpTool, args: Record<string, unknown>): Promise<Record<string, unknown> | string> => {
    const numbers = tool.params.filter((param) => (param.name === 'id' || param.name === 'lesson') && typeof args[param.name] === 'number');
    if (numbers.length === 0) return args;
    const ids = await lessonIdsOf(typeof args.course === 'string' ? { course: args.course } : {});
    const fixed = { ...args };
    for (const param of numbers) {
      const number = args[param.name] as number;
      const matches = ids.filter((id) => Number(id) === number);
      if (matches.length > 1) return `error: ${tool.name}: ${param.name} ${number} as a number is ambiguous: lessons ${matches.join(' and ')}; give the id as text, e.g. "${matches.at(-1)}"`;
      fixed[param.name] = matches[0] ?? String(number);
    }
    return fixed;
  };

  /**
   * The question for the user when a call carries a decision that is the user's (leaving a ready
   * gate without `approved`, lifting a user block, reopening a lesson, dropping lessons), or null.
   */
  const userQuestion = async (tool: McpTool, args: Record<string, unknown>): Promise<string | null> => {
    const course = typeof args.course === 'string' ? { course: args.course } : {};
    if (tool.name === 'state_phase' && args.approved !== true) {
      const planned = await run(commandNamed('state next'), course);
      if (planned.exitCode !== 0) return null;
      const plan = JSON.parse(planned.stdout) as { phase: string; next_phase: string | null; approval_needed: boolean; ready: boolean };
      if (!plan.approval_needed || !plan.ready || plan.next_phase !== args.next) return null;
      const what = plan.phase === 'gate_sources' ? 'the sources gathered (.codelabgen/sources.jsonl)' : 'the curriculum and plan (.codelabgen/curriculum.yaml, .codelabgen/plan.md)';
      return `Leave ${plan.phase} and move to ${String(args.next)}? This gate is yours to approve: ${what}.`;
    }
    if (tool.name === 'state_unblock') {
      const shown = await run(commandNamed('state show'), course);
      if (shown.exitCode !== 0) return null;
      const lesson = getOwn((JSON.parse(shown.stdout) as { lessons: Record<string, { blocked: { by: string; reason: string } | null }> }).lessons, String(args.id));
      if (lesson?.blocked?.by !== 'user') return null;
      return `Unblock lesson ${String(args.id)}? It was blocked: ${lesson.blocked.reason}`;
    }
    if (tool.name === 'state_set' && args.reopen === true) return `Reopen lesson ${String(args.id)}: move it back to ${String(args.stage)} and the course back to phase lessons?`;
    if (tool.name === 'register' && args.allow_drop === true) return 'Drop the lessons that are no longer in the curriculum from the state (their history stays in the log)?';
    return null;
  };
  /** Asks the user (elicitation/create); 'approved', or why not. */
  const askUser = async (question: string, signal: AbortSignal): Promise<string> => {
    const answer = await server.server.elicitInput({
      message: question,
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve', description: question } }, required: ['approve'] },
    }, { signal, timeout: 30 * 60_000 });
    if (answer.action === 'accept' && answer.content?.approve === true) return 'approved';
    return answer.action === 'accept' ? 'answered no' : answer.action === 'decline' ? 'declined' : 'cancelled';
  };

  // Tools are served by our own handlers, not McpServer.registerTool: the SDK's strips unknown arguments
  // silently and answers a wrong one without the CLI's words; here the schema is strict and a wrong
  // argument is a refusal like the CLI's (exit 2, nothing runs).
  const tools = mcpTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => {
      const outputSchema = outputJsonSchema(tool) as { type: 'object' } | undefined;
      return { name: tool.name, title: tool.title, description: inToolTerms(tool.description, tools), inputSchema: inputJsonSchema(tool) as { type: 'object' }, ...(outputSchema && { outputSchema }), annotations: tool.annotations };
    }),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${printable(request.params.name)} not found`);
    const args = request.params.arguments ?? {};
    const problem = checkArguments(tool, args);
    if (problem !== null) return toolResult({ exitCode: EXIT.refused, stdout: '', stderr: '', error: problem });
    // A lesson id given as a number: 1.10 arrives as 1.1, so it is matched against the course's ids.
    const numbered = await lessonIdsAsText(tool, args);
    if (typeof numbered === 'string') return toolResult({ exitCode: EXIT.refused, stdout: '', stderr: '', error: numbered });
    const args2 = numbered;
    const token = extra._meta?.progressToken;
    let sent = 0;
    // Two updates per lesson (start, end): progress counts them, so it only ever grows.
    const progress = token === undefined ? undefined : (update: ProgressUpdate) => {
      sent += 1;
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: sent, total: update.total * 2, message: update.message } }).catch(() => {});
    };
    // A cancelled call (notifications/cancelled) aborts extra.signal: verify stops its tests, records nothing.
    // Decisions that are the user's: a client that can elicit asks the user (docs/mcp.md).
    let values: Record<string, string> = {};
    let callArgs = args2;
    const question = server.server.getClientCapabilities()?.elicitation ? await userQuestion(tool, args2) : null;
    if (question !== null) {
      const decision = await askUser(question, extra.signal);
      if (decision !== 'approved') return toolResult({ exitCode: EXIT.refused, stdout: '', stderr: '', error: `error: ${tool.name}: the user did not approve (${decision}): ${question}; nothing changed` });
      callArgs = tool.name === 'state_phase' ? { ...args2, approved: true } : args2;
      values = { 'approved-via': 'elicitation' };
    }
    const outcome = await run(tool, callArgs, progress, extra.signal, values);
    // Notices and warnings (drift, a sandbox that is off, a repaired log) also as log messages, at the client's level.
    for (const line of outcome.stderr.split('\n').filter((text) => text.trim() !== '')) {
      const warning = line.startsWith('warning: ');
      void server.server.sendLoggingMessage({ level: warning ? 'warning' : 'info', logger: `codelabgen ${tool.command.name}`, data: inToolTerms(warning ? line.slice('warning: '.length) : line) }, extra.sessionId).catch(() => {});
    }
    return toolResult(outcome, tool.name === 'state_next' ? withNextCall : tool.name === 'state_stages' ? inToolTermsDeep : undefined);
  });

  /** A resource whose text is a command's stdout; a refusal is a JSON-RPC error with the `error:` line. */
  const resource = (name: string, uri: string, description: string, mimeType: string, command: string, args: Record<string, unknown> = {}) => {
    const tool = commandNamed(command);
    server.registerResource(name, uri, { description, mimeType }, async (): Promise<ReadResourceResult> => {
      const outcome = await run(tool, args);
      if (outcome.exitCode !== 0) throw new Error(inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
      const transform = command === 'state next' ? withNextCall : command === 'state stages' ? inToolTermsDeep : null;
      const text = transform === null ? outcome.stdout : `${JSON.stringify(transform(JSON.parse(outcome.stdout) as Record<string, unknown>), null, 2)}\n`;
      return { contents: [{ uri, mimeType, text }] };
    });
  };
  resource('state', 'codelabgen://state', 'The whole course state (state show --json).', 'application/json', 'state show');
  resource('next', 'codelabgen://next', 'What to do next (state next).', 'application/json', 'state next');
  resource('stages', 'codelabgen://stages', 'The lesson stages, their work, worker role and next command (state stages).', 'application/json', 'state stages');
  for (const topic of CONVENTION_TOPICS) resource(`conventions-${topic}`, `codelabgen://conventions/${topic}`, `The ${topic} conventions, with examples (conventions ${topic}).`, 'text/markdown', 'conventions', { topic });
  for (const name of SCHEMA_NAMES) resource(`schema-${name}`, `codelabgen://schema/${name}`, `JSON Schema of ${name} (schema show ${name}).`, 'application/schema+json', 'schema show', { name });

  /** The lesson ids of a call's course (none when it cannot be read). */
  const lessonIdsOf = async (args: Record<string, unknown>): Promise<string[]> => {
    const outcome = await run(commandNamed('state show'), args);
    if (outcome.exitCode !== 0) return [];
    return Object.keys((JSON.parse(outcome.stdout) as { lessons: Record<string, unknown> }).lessons);
  };

  // Lessons and their runs, the report: resource templates (codelabgen://lesson/{id} lists every lesson).
  const stateOf = async (): Promise<{ lessons: Record<string, Record<string, unknown>> }> => {
    const outcome = await run(commandNamed('state show'), {});
    if (outcome.exitCode !== 0) throw new Error(inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
    return JSON.parse(outcome.stdout) as { lessons: Record<string, Record<string, unknown>> };
  };
  const courseRoot = async (): Promise<string> => {
    const given = await courseOf({});
    return resolveCourse({ flag: given, env: undefined, cwd: options.cwd }).root;
  };
  const lessonIds = async (): Promise<string[]> => lessonIdsOf({});
  server.registerResource(
    'lesson',
    new ResourceTemplate('codelabgen://lesson/{id}', { list: async () => ({ resources: (await lessonIds()).map((id) => ({ uri: `codelabgen://lesson/${id}`, name: `lesson ${id}`, mimeType: 'application/json' })) }) }),
    { description: 'One lesson\'s state (its entry of state show --json).', mimeType: 'application/json' },
    async (uri, { id }): Promise<ReadResourceResult> => {
      const lesson = getOwn((await stateOf()).lessons, String(id));
      if (lesson === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown lesson "${printable(String(id))}"`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: `${JSON.stringify({ id: String(id), ...lesson }, null, 2)}\n` }] };
    },
  );
  server.registerResource(
    'lesson-run',
    new ResourceTemplate('codelabgen://lesson/{id}/run/{n}', { list: undefined }),
    { description: 'One verify run of a lesson (.codelabgen/runs/<id>/<n>.json, the run-result schema).', mimeType: 'application/json' },
    async (uri, { id, n }): Promise<ReadResourceResult> => {
      if (getOwn((await stateOf()).lessons, String(id)) === undefined || !/^[1-9]\d{0,5}$/.test(String(n))) throw new McpError(ErrorCode.InvalidParams, `no run "${printable(String(n))}" of lesson "${printable(String(id))}"`);
      const file = path.join(await courseRoot(), ARTIFACTS.runsDir(String(id)), `${String(n)}.json`);
      if (!existsSync(file)) throw new McpError(ErrorCode.InvalidParams, `lesson ${String(id)} has no run ${String(n)}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: readFileSync(file, 'utf8') }] };
    },
  );
  server.registerResource('report', 'codelabgen://report', { description: 'The last report (.codelabgen/report.json, written by the report tool).', mimeType: 'application/json' }, async (uri): Promise<ReadResourceResult> => {
    const file = path.join(await courseRoot(), '.codelabgen', 'report.json');
    if (!existsSync(file)) throw new McpError(ErrorCode.InvalidParams, 'no report yet: call the report tool');
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: readFileSync(file, 'utf8') }] };
  });
  const fromCommand = async (command: string, args: Record<string, unknown>, uri: string, mimeType: string): Promise<ReadResourceResult> => {
    const outcome = await run(commandNamed(command), args);
    if (outcome.exitCode !== 0) throw new McpError(ErrorCode.InvalidParams, inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
    return { contents: [{ uri, mimeType, text: outcome.stdout }] };
  };
  server.registerResource('conventions', new ResourceTemplate('codelabgen://conventions/{topic}', { list: undefined }), { description: 'The conventions of one topic, with examples.', mimeType: 'text/markdown' }, (uri, { topic }) => fromCommand('conventions', { topic: String(topic) }, uri.href, 'text/markdown'));
  server.registerResource('schema', new ResourceTemplate('codelabgen://schema/{name}', { list: undefined }), { description: 'The JSON Schema of one data file.', mimeType: 'application/schema+json' }, (uri, { name }) => fromCommand('schema show', { name: String(name) }, uri.href, 'application/schema+json'));

  // Subscriptions: one tail of the course's events.jsonl while a client is subscribed to anything.
  const subscribed = new Set<string>();
  let tail: LogTail | null = null;
  const follow = async () => {
    if (tail !== null) return;
    let root: string;
    try {
      root = await courseRoot();
    } catch {
      return; // no course yet (before init): nothing to follow
    }
    tail = tailEvents(root, (events) => {
      for (const uri of changedResources(events)) if (subscribed.has(uri)) void server.server.sendResourceUpdated({ uri }).catch(() => {});
      if (events.some((event) => event.kind === 'lessons.register')) server.sendResourceListChanged();
    });
  };
  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true }, completions: {} });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    await follow();
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    if (subscribed.size === 0) {
      tail?.stop();
      tail = null;
    }
    return {};
  });
  server.server.onclose = () => tail?.stop();

  // Completions for the arguments of tools' resources and prompts, by name.
  server.server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { name, value } = request.params.argument;
    const choices = await completionsFor(name, request.params.ref.type === 'ref/prompt' ? request.params.ref.name : null, lessonIds);
    const values = choices.filter((choice) => choice.startsWith(value));
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  const link = (uri: string, name: string, description: string, mimeType: string) => ({ role: 'user' as const, content: { type: 'resource_link' as const, uri, name, description, mimeType } });
  server.registerPrompt('orchestrate', { title: 'Orchestrate a course generation', description: 'How an orchestrator agent drives a course from init to done (docs/agents.md); with this server, each `codelabgen <command>` is the tool of the same name with "_" for spaces.' }, () => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `${agentsDoc}\n\nThrough this MCP server, every \`codelabgen <words>\` command above is the tool \`<words joined by _>\` (state next → state_next) with the same options as arguments; --json is implied, --course is the call's \`course\` argument (default: the server's). state_next's next_call is the call that takes the next step; each worker role has a prompt of its name (code-author, ...) that briefs a worker on one lesson.` } },
      link('codelabgen://next', 'next', 'What to do next (state_next), with next_call', 'application/json'),
      link('codelabgen://stages', 'stages', 'The stages, their work and worker roles', 'application/json'),
      link('codelabgen://state', 'state', 'The whole course state', 'application/json'),
      ...CONVENTION_TOPICS.map((topic) => link(`codelabgen://conventions/${topic}`, `conventions-${topic}`, `The ${topic} conventions`, 'text/markdown')),
    ],
  }));

  // A prompt per worker role, from the stage table (state stages) and the conventions a role follows.
  for (const row of STAGE_TABLE.filter((candidate) => candidate.role !== 'orchestrator')) {
    const topics = ROLE_CONVENTIONS[row.role] ?? [];
    server.registerPrompt(row.role, {
      title: `Brief a ${row.role}`,
      description: `The ${row.role}'s task for one lesson at stage ${row.stage}: ${row.work.replace(/<id>/g, 'ID')}. Give it to the worker you start after state_task_start.`,
      argsSchema: { lesson: z.string().describe('lesson id, e.g. "1.2" (completion offers the course\'s)') },
    }, async ({ lesson: id }) => {
      const lesson = getOwn((await stateOf()).lessons, id);
      if (lesson === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown lesson "${printable(id)}"`);
      const status = { lesson: id, status: 'ok', stage: row.next_stage, artifacts: ['<the files you wrote, relative to the course>'] };
      const text = [
        `You are the ${row.role} of lesson ${id} ("${String(lesson.title)}", module ${String(lesson.module_id)} "${String(lesson.module_title)}") of this course; its folder is ${String(lesson.dir)}.`,
        lesson.stage === row.stage ? '' : `Note: the lesson is at stage ${String(lesson.stage)}; a ${row.role} works on lessons at ${row.stage}.`,
        `Your work: ${inToolTerms(row.work.replace(/<id>/g, id), tools)}.`,
        topics.length === 0 ? '' : `Follow the conventions (${topics.map((topic) => `codelabgen://conventions/${topic}`).join(', ')}, linked below).`,
        'Log a notable fact (an unreachable source, a surprising behaviour) with state_log; renew a long task with state_task_heartbeat.',
        `End your answer with your status as a JSON block (schema: codelabgen://schema/worker-status), e.g.\n\`\`\`json\n${JSON.stringify(status)}\n\`\`\``,
        `The orchestrator checks it (status_check), records it (state_task_done with result) and then: ${inToolTerms(row.then.replace(/<id>/g, id), tools)}.`,
      ].filter((line) => line !== '').join('\n\n');
      return {
        description: `${row.role} for lesson ${id}`,
        messages: [
          { role: 'user', content: { type: 'text', text } },
          ...topics.map((topic) => link(`codelabgen://conventions/${topic}`, `conventions-${topic}`, `The ${topic} conventions`, 'text/markdown')),
          link('codelabgen://schema/worker-status', 'schema-worker-status', 'The worker status schema', 'application/schema+json'),
        ],
      };
    });
  }
  server.registerPrompt('researcher', {
    title: 'Brief a researcher (a phase task)',
    description: `The worker of a phase task (${TASK_PHASES.join(', ')}): what the phase requires, from state_next's actions. Give it to the worker you start after state_task_start with phase and role researcher.`,
    argsSchema: { phase: z.string().describe(`the phase: ${TASK_PHASES.join(', ')}`) },
  }, async ({ phase }) => {
    if (!(TASK_PHASES as readonly string[]).includes(phase)) throw new McpError(ErrorCode.InvalidParams, `phase "${printable(phase)}": phase tasks are for ${TASK_PHASES.join(', ')}`);
    const outcome = await run(commandNamed('state next'), {});
    if (outcome.exitCode !== 0) throw new McpError(ErrorCode.InvalidParams, inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
    const plan = JSON.parse(outcome.stdout) as { phase: string; actions: Array<{ description: string; path?: string; done: boolean }> };
    const actions = plan.phase === phase ? plan.actions : [];
    const text = [
      `You are the researcher of phase ${phase} of this course.`,
      plan.phase === phase ? 'What the phase requires before it can be left:' : `Note: the course is at phase ${plan.phase}; the actions of ${phase} show once it is the current phase (state_next).`,
      ...actions.map((action) => `- ${action.description}${action.path ? ` (${action.path})` : ''}${action.done ? ' — done' : ''}`),
      'Write each file in its schema (codelabgen://schema/<name>: source, topic, curriculum); log a notable fact with state_log. End with a short summary of what you wrote; the orchestrator records it with state_task_done.',
    ].join('\n');
    return { description: `researcher for phase ${phase}`, messages: [{ role: 'user', content: { type: 'text', text } }] };
  });
  return server;
}

/** The conventions each worker role follows (conventions <topic>). */
const ROLE_CONVENTIONS: Readonly<Record<string, readonly string[]>> = {
  'readalong-writer': ['readalong', 'diagrams'],
  'notes-writer': ['notes', 'diagrams'],
  'lesson-reviewer': ['review', 'readalong', 'notes'],
};

/** Worker roles: the stage table's, and the researcher of phase tasks (docs/agents.md). */
export const ROLES: readonly string[] = [...new Set([...STAGE_TABLE.map((row) => row.role).filter((role) => role !== 'orchestrator'), 'researcher'])];

/** What an argument named `name` can be (a prompt's phase: only phases with tasks). */
async function completionsFor(name: string, prompt: string | null, lessonIds: () => Promise<string[]>): Promise<string[]> {
  if (name === 'id' || name === 'lesson') return lessonIds();
  if (name === 'phase') return prompt === null ? [...PHASES] : [...TASK_PHASES];
  if (name === 'next') return PHASES.filter((phase) => phase !== 'init');
  if (name === 'stage' || name === 'stage_at_least') return [...STAGES];
  if (name === 'name') return [...SCHEMA_NAMES];
  if (name === 'topic') return [...CONVENTION_TOPICS];
  if (name === 'role') return [...ROLES];
  return [];
}
