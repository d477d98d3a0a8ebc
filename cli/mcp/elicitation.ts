// Decisions that are the user's (docs/mcp.md): the question a call carries (a ready gate left without
// `approved`, a user block lifted, a lesson reopened, lessons dropped), asked through elicitation/create.
import { getOwn } from '../../pipeline/index.ts';
import { printable } from '../../pipeline/state-commands.ts';
import { commandNamed, type ServerContext } from './server-context.ts';
import type { McpTool } from './tool-types.ts';

/**
 * The question for the user when a call carries a decision that is the user's (leaving a ready
 * gate without `approved`, lifting a user block, reopening a lesson, dropping lessons), or null.
 */
export async function userQuestion(
  ctx: ServerContext,
  tool: McpTool,
  args: Record<string, unknown>,
): Promise<string | null> {
  const course = typeof args.course === 'string' ? { course: args.course } : {};
  if (tool.name === 'state_phase' && args.approved !== true) {
    const planned = await ctx.run(commandNamed('state next'), course);
    if (planned.exitCode !== 0) return null;
    const plan = JSON.parse(planned.stdout) as {
      phase: string;
      next_phase: string | null;
      approval_needed: boolean;
      ready: boolean;
    };
    if (!plan.approval_needed || !plan.ready || plan.next_phase !== args.next) return null;
    const what =
      plan.phase === 'gate_sources'
        ? 'the sources gathered (.codelabgen/sources.jsonl)'
        : 'the curriculum and plan (.codelabgen/curriculum.yaml, .codelabgen/plan.md)';
    return `Leave ${plan.phase} and move to ${String(args.next)}? This gate is yours to approve: ${what}.`;
  }
  if (tool.name === 'state_unblock') {
    const shown = await ctx.run(commandNamed('state show'), course);
    if (shown.exitCode !== 0) return null;
    const lesson = getOwn(
      (JSON.parse(shown.stdout) as { lessons: Record<string, { blocked: { by: string; reason: string } | null }> })
        .lessons,
      String(args.id),
    );
    if (lesson?.blocked?.by !== 'user') return null;
    return `Unblock lesson ${String(args.id)}? It was blocked: ${lesson.blocked.reason}`;
  }
  if (tool.name === 'state_set' && args.reopen === true)
    return `Reopen lesson ${String(args.id)}: move it back to ${String(args.stage)} and the course back to phase lessons?`;
  if (tool.name === 'register' && args.allow_drop === true)
    return 'Drop the lessons that are no longer in the curriculum from the state (their history stays in the log)?';
  return null;
}

/** Asks the user (elicitation/create); 'approved', or why not. */
export async function askUser(ctx: ServerContext, question: string, signal: AbortSignal): Promise<string> {
  let answer: Awaited<ReturnType<typeof ctx.server.server.elicitInput>>;
  try {
    answer = await ctx.server.server.elicitInput(
      {
        message: question,
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: 'Approve', description: question } },
          required: ['approve'],
        },
      },
      { signal, timeout: 30 * 60_000 },
    );
  } catch (error) {
    // No answer is no approval: a client whose elicitation fails (an error, an answer off the schema, none in time)
    // gets the call refused as a decline is, not a JSON-RPC error. The SDK's messages repeat their "MCP error N: ".
    const why = error instanceof Error ? error.message : String(error);
    return `no answer: ${printable(why.replace(/^(MCP error -?\d+: )+/, ''), 200)}`;
  }
  if (answer.action === 'accept' && answer.content?.approve === true) return 'approved';
  return answer.action === 'accept' ? 'answered no' : answer.action === 'decline' ? 'declined' : 'cancelled';
}
