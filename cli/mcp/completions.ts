// Completions (completion/complete) for the arguments of the server's resource templates and prompts, by
// argument name: the course's lesson ids, phases, stages, schema names, convention topics, roles. A prompt
// or resource template the server does not have is -32602 (the MCP spec's "Invalid prompt name", as the
// SDK's own McpServer answers); an argument the prompt or template does not take completes to nothing.
import { CompleteRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { PHASES, SCHEMA_NAMES, STAGES } from '../../content-schemas/index.ts';
import { BRIEFED_PHASES, CONVENTION_TOPICS, ROLE_NAMES } from '../../pipeline/index.ts';
import { printable } from '../../pipeline/state-commands.ts';
import type { PromptIndex } from './prompts.ts';
import type { ResourceIndex } from './resources.ts';
import type { ServerContext } from './server-context.ts';

/** Serves completion/complete on `ctx.server`, for the arguments of `prompts` and of the templates of `resources`. */
export function registerCompletions(ctx: ServerContext, prompts: PromptIndex, resources: ResourceIndex): void {
  ctx.server.server.registerCapabilities({ completions: {} });
  // Completions for the arguments of tools' resources and prompts, by name.
  ctx.server.server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref } = request.params;
    const { name, value } = request.params.argument;
    const taken =
      ref.type === 'ref/prompt'
        ? prompts.get(ref.name)?.map((argument) => argument.name)
        : (resources.templates.get(ref.uri) ?? (resources.serves(ref.uri) ? [] : undefined));
    if (taken === undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        ref.type === 'ref/prompt'
          ? `completion/complete: no prompt "${printable(ref.name)}" (see prompts/list)`
          : `completion/complete: no resource template "${printable(ref.uri)}" (see resources/templates/list)`,
      );
    if (!taken.includes(name)) return { completion: { values: [], total: 0, hasMore: false } };
    // A prompt's lesson ids are those of the course its `course` argument names, when given.
    const course = request.params.context?.arguments?.course;
    const lessonIds = async (): Promise<string[]> => ctx.lessonIdsOf(course === undefined ? {} : { course });
    const choices = await completionsFor(name, ref.type === 'ref/prompt' ? ref.name : null, lessonIds);
    const values = choices.filter((choice) => choice.startsWith(value));
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });
}

/** Worker roles: the stage table's and the phase workers' (`codelabgen brief`). */
export const ROLES: readonly string[] = ROLE_NAMES;

/** What an argument named `name` can be (a prompt's phase: only phases with tasks). */
async function completionsFor(
  name: string,
  prompt: string | null,
  lessonIds: () => Promise<string[]>,
): Promise<string[]> {
  if (name === 'id' || name === 'lesson') return lessonIds();
  if (name === 'phase') return prompt === null ? [...PHASES] : [...BRIEFED_PHASES];
  if (name === 'next') return PHASES.filter((phase) => phase !== 'init');
  if (name === 'stage' || name === 'stage_at_least') return [...STAGES];
  if (name === 'name') return [...SCHEMA_NAMES];
  if (name === 'topic') return [...CONVENTION_TOPICS];
  if (name === 'role') return [...ROLES];
  return [];
}
