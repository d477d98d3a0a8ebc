// The server's tools: tools/list (schemas from cli/mcp/tool-schemas.ts) and tools/call, which checks
// the arguments, asks the user for the user's decisions, runs the command and reports progress and notices.
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { printable } from '../../pipeline/state-commands.ts';
import type { ProgressUpdate } from '../context.ts';
import { EXIT } from '../exit-codes.ts';
import { askUser, userQuestion } from './elicitation.ts';
import type { ServerContext } from './server-context.ts';
import { checkArguments } from './tool-arguments.ts';
import { inToolTermsDeep, toolResult, withNextCall } from './tool-results.ts';
import { inputJsonSchema, outputJsonSchema } from './tool-schemas.ts';
import { inToolTerms } from './tool-terms.ts';
import type { McpTool } from './tool-types.ts';

/**
 * The call's arguments with every lesson id given as a number (`1.2`) as the course's lesson of
 * that number ("1.2"; "1.10" when only that one reads as 1.1), or the refusal when two lessons do.
 */
async function lessonIdsAsText(
  ctx: ServerContext,
  tool: McpTool,
  args: Record<string, unknown>,
): Promise<Record<string, unknown> | string> {
  const numbers = tool.params.filter(
    (param) => (param.name === 'id' || param.name === 'lesson') && typeof args[param.name] === 'number',
  );
  if (numbers.length === 0) return args;
  const ids = await ctx.lessonIdsOf(typeof args.course === 'string' ? { course: args.course } : {});
  const fixed = { ...args };
  for (const param of numbers) {
    const number = args[param.name] as number;
    const matches = ids.filter((id) => Number(id) === number);
    if (matches.length > 1)
      return (
        `error: ${tool.name}: ${param.name} ${number} as a number is ambiguous: lessons ${matches.join(' and ')}` +
        `; give the id as text, e.g. "${matches.at(-1)}"`
      );
    fixed[param.name] = matches[0] ?? String(number);
  }
  return fixed;
}

/** Tools whose documents are guidance (a stage's next step, a problem's fix) rather than data, so in tool terms throughout. */
const GUIDANCE = new Set(['state_stages', 'check']);

/** Every `description` of a JSON Schema in tool terms (a data file's field that names `state unblock --review-round`). */
function describedInToolTerms(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(describedInToolTerms);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'description' && typeof value === 'string' ? inToolTerms(value) : describedInToolTerms(value),
    ]),
  );
}

/** A tool as tools/list shows it: its schemas, and its texts in tool terms. */
function listedTool(tool: McpTool): Tool {
  const outputSchema = outputJsonSchema(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: inToolTerms(tool.description),
    inputSchema: describedInToolTerms(inputJsonSchema(tool)) as Tool['inputSchema'],
    ...(outputSchema && { outputSchema: describedInToolTerms(outputSchema) as Tool['outputSchema'] }),
    annotations: tool.annotations,
  };
}

/** Serves the tools on `ctx.server`. */
export function registerTools(ctx: ServerContext): void {
  // Tools are served by our own handlers, not McpServer.registerTool: the SDK's strips unknown arguments
  // silently and answers a wrong one without the CLI's words; here the schema is strict and a wrong
  // argument is a refusal like the CLI's (exit 2, nothing runs).
  const { server, tools } = ctx;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.server.registerCapabilities({ tools: {} });
  let listed: Tool[] | null = null;
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: (listed ??= tools.map(listedTool)) }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${printable(request.params.name)} not found`);
    const args = request.params.arguments ?? {};
    const problem = checkArguments(tool, args);
    if (problem !== null) return toolResult({ exitCode: EXIT.refused, stdout: '', stderr: '', error: problem });
    // A lesson id given as a number: 1.10 arrives as 1.1, so it is matched against the course's ids.
    const numbered = await lessonIdsAsText(ctx, tool, args);
    if (typeof numbered === 'string')
      return toolResult({ exitCode: EXIT.refused, stdout: '', stderr: '', error: numbered });
    const args2 = numbered;
    const token = extra._meta?.progressToken;
    let sent = 0;
    // Progress counts the updates sent, so it only ever grows (verify sends two per lesson, a start and an end).
    const progress =
      token === undefined
        ? undefined
        : (update: ProgressUpdate) => {
            sent += 1;
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: sent,
                  total: update.total * (update.updatesPerUnit ?? 1),
                  message: update.message,
                },
              })
              .catch(() => {});
          };
    // A cancelled call (notifications/cancelled) aborts extra.signal: verify stops its tests, records nothing.
    // Decisions that are the user's: a client that can elicit asks the user (docs/mcp.md).
    let values: Record<string, string> = {};
    let callArgs = args2;
    const question = server.server.getClientCapabilities()?.elicitation ? await userQuestion(ctx, tool, args2) : null;
    if (question !== null) {
      const decision = await askUser(ctx, question, extra.signal);
      if (decision !== 'approved')
        return toolResult({
          exitCode: EXIT.refused,
          stdout: '',
          stderr: '',
          error: `error: ${tool.name}: the user did not approve (${decision}): ${question.replace(/[.?]$/, '')}; nothing changed`,
        });
      callArgs = tool.name === 'state_phase' ? { ...args2, approved: true } : args2;
      values = { 'approved-via': 'elicitation' };
    }
    const outcome = await ctx.run(tool, callArgs, progress, extra.signal, values);
    // Notices and warnings (drift, a sandbox that is off, a repaired log) also as log messages, at the client's level.
    for (const line of outcome.stderr.split('\n').filter((text) => text.trim() !== '')) {
      const warning = line.startsWith('warning: ');
      void server.server
        .sendLoggingMessage(
          {
            level: warning ? 'warning' : 'info',
            logger: `codelabgen ${tool.command.name}`,
            data: inToolTerms(warning ? line.slice('warning: '.length) : line),
          },
          extra.sessionId,
        )
        .catch(() => {});
    }
    return toolResult(
      outcome,
      tool.name === 'state_next' ? withNextCall : GUIDANCE.has(tool.name) ? inToolTermsDeep : undefined,
    );
  });
}
