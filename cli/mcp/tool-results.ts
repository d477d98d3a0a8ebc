// A command's outcome as an MCP tool result, and the documents rewritten for MCP clients: command
// lines in tool terms, `state next` with next_call. Used by the tools and resources of the server.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Outcome } from './invoke.ts';
import { inToolTerms, type ToolCall } from './tool-terms.ts';

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
  const lines = error?.split('\n') ?? [];
  const structuredContent =
    document ??
    (error !== null
      ? {
          error: lines.find((line) => line.startsWith('error: '))?.slice('error: '.length) ?? error,
          hints: lines.filter((line) => line.startsWith('hint: ')).map((line) => line.slice('hint: '.length)),
          exit_code: outcome.exitCode,
        }
      : { text: stdout });
  return {
    content,
    structuredContent,
    isError: outcome.exitCode !== 0,
    _meta: { 'codelabgen/exit_code': outcome.exitCode },
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

/** `state next` over MCP: in tool terms (next_step, each lesson's action), with next_call, the call that takes the next step. */
export function withNextCall(plan: Record<string, unknown>): Record<string, unknown> {
  const next = plan.next_phase as string | null;
  const lessons = plan.lessons as Array<{ lesson: string }>;
  const blocked = plan.blocked as unknown[];
  const missing = (plan.actions as Array<{ done: boolean }>).some((action) => !action.done);
  let nextCall: ToolCall | null = null;
  if (
    plan.done === true ||
    (plan.interrupted as unknown[]).length > 0 ||
    (plan.prerequisites_changed as unknown[]).length > 0
  )
    nextCall = null;
  else if (lessons.length > 0) nextCall = { tool: 'state_task_start', arguments: { lesson: lessons[0]!.lesson } };
  else if (next !== null && !missing && !(plan.phase === 'lessons' && blocked.length > 0 && plan.ready !== true))
    nextCall = { tool: 'state_phase', arguments: plan.approval_needed === true ? { next, approved: true } : { next } };
  return { ...inToolTermsDeep(plan), next_call: nextCall };
}
