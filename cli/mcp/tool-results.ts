// A command's outcome as an MCP tool result, and the documents rewritten for MCP clients: command
// lines in tool terms, `state next` with next_call. Used by the tools and resources of the server.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Outcome } from './invoke.ts';
import { inToolTerms, plannedCall, type ToolCall } from './tool-terms.ts';

type PlannedCommand = Parameters<typeof plannedCall>[0];

/**
 * A command's outcome as a tool result: its stdout (the --json document, also as structuredContent),
 * then warnings; refusals are errors. Command lines in the text are written as tool calls.
 */
export function toolResult(
  outcome: Outcome,
  transform?: (document: Record<string, unknown>) => Record<string, unknown>,
): CallToolResult {
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
  // A refusal has no structuredContent: a client checks it against the tool's outputSchema (the SDK's does,
  // error results too), which describes the answer, not a refusal. Its error and hints are in _meta.
  // A failed check (exit 1: verify, check) keeps its document, which is the tool's answer.
  return {
    content,
    ...(document !== undefined
      ? { structuredContent: document }
      : error === null
        ? { structuredContent: { text: stdout } }
        : {}),
    isError: outcome.exitCode !== 0,
    _meta: {
      'codelabgen/exit_code': outcome.exitCode,
      ...(error !== null && { 'codelabgen/error': refusalOf(error) }),
    },
  };
}

/** A refusal's `error:` line and `hint:` lines as `{error, hints}` (the CLI's words, in tool terms). */
function refusalOf(error: string): { error: string; hints: string[] } {
  const lines = error.split('\n');
  return {
    error: lines.find((line) => line.startsWith('error: '))?.slice('error: '.length) ?? error,
    hints: lines.filter((line) => line.startsWith('hint: ')).map((line) => line.slice('hint: '.length)),
  };
}

/** Every string of a document with its command lines in tool terms (a lesson's action, a stage's next step). */
export function inToolTermsDeep<T>(value: T): T {
  if (typeof value === 'string') return inToolTerms(value) as T;
  if (Array.isArray(value)) return value.map(inToolTermsDeep) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inToolTermsDeep(item)])) as T;
  return value;
}

/** `state next` over MCP: in tool terms (next_step, each lesson's action), with next_call (its next_command as a tool call) instead of next_command. */
export function withNextCall(plan: Record<string, unknown>): Record<string, unknown> {
  const { next_command: planned, ...rest } = plan as Record<string, unknown> & { next_command: PlannedCommand | null };
  const nextCall: ToolCall | null = planned ? plannedCall(planned) : null;
  return { ...inToolTermsDeep(rest), next_call: nextCall };
}
