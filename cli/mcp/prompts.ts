// The server's prompts: `orchestrate` (docs/mcp.md's "For orchestrator agents", with links to the resources it
// reads), and one brief per worker role: the text of `codelabgen brief <role>` (pipeline/brief/), run
// as the CLI runs it and written in tool terms. Every prompt that reads a course takes `course`.
// prompts/get checks the arguments by the prompt's own list first: an unknown one or a required one
// left out is -32602 naming the prompt and the argument (the SDK drops unknown ones and says "Invalid input").
import { ErrorCode, GetPromptRequestSchema, McpError, type GetPromptRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { DOC_KINDS } from '../../content-schemas/index.ts';
import mcpDoc from '../../docs/mcp.md';
import { BRIEFED_PHASES, CONVENTION_TOPICS, LESSON_ROLES, PHASE_ROLES } from '../../pipeline/index.ts';
import { printable } from '../../pipeline/state-commands.ts';
import { commandNamed, type ServerContext } from './server-context.ts';
import { briefErrorInMcpTerms, inMcpTerms } from './brief-terms.ts';
import { withHandlerWrapped } from './request-errors.ts';
import { COURSE } from './tool-params.ts';

/** A prompt's argument, as prompts/list shows it. */
export interface PromptArgument {
  name: string;
  required: boolean;
}

/** Every prompt by name, with its arguments (for completion/complete). */
export type PromptIndex = ReadonlyMap<string, readonly PromptArgument[]>;

/** A prompt's arguments from its zod shape: required unless the schema takes undefined. */
function argumentsOf(shape: Record<string, z.ZodType>): PromptArgument[] {
  return Object.entries(shape).map(([name, schema]) => ({ name, required: !schema.safeParse(undefined).success }));
}

/** What is wrong with the arguments `given` to `prompt` (which takes `taken`), in the words of a tool's refusal; null: nothing. */
export function promptArgumentProblem(
  prompt: string,
  taken: readonly PromptArgument[],
  given: Record<string, unknown>,
): string | null {
  const names = taken.map((argument) => argument.name);
  const unknown = Object.keys(given).filter((name) => !names.includes(name));
  if (unknown.length > 0)
    return (
      `prompt ${prompt}: unknown argument${unknown.length > 1 ? 's' : ''} ` +
      `${unknown.map((name) => `"${printable(name)}"`).join(', ')} ` +
      `(${prompt} takes ${names.length === 0 ? 'no arguments' : names.join(', ')})`
    );
  const missing = taken.find((argument) => argument.required && given[argument.name] === undefined);
  return missing === undefined ? null : `prompt ${prompt}: ${missing.name} is required`;
}

/**
 * The conventions a worker role follows (linked as resources after its brief): a doc writer its docs'
 * topics and diagrams, the reviewer review and every doc kind's (content-schemas/doc-kinds.ts).
 */
function roleConventions(role: string): string[] {
  if (role === 'lesson-reviewer') return [...new Set(['review', ...DOC_KINDS.map((kind) => kind.conventions)])];
  const written = DOC_KINDS.filter((kind) => kind.writer === role);
  return written.length === 0 ? [] : [...new Set([...written.map((kind) => kind.conventions), 'diagrams'])];
}

/** What `brief --json` prints (pipeline/brief/brief.ts). */
interface BriefDocument {
  course: string;
  text: string;
  lesson: string | null;
  phase: string | null;
}

/** orchestrate's text: docs/mcp.md's "For orchestrator agents", written in tool terms. */
export function orchestrateText(): string {
  const start = mcpDoc.indexOf('## For orchestrator agents');
  const end = mcpDoc.indexOf('<!-- end of orchestrate -->');
  if (start === -1 || end === -1) throw new Error('docs/mcp.md has no "For orchestrator agents" section');
  return mcpDoc
    .slice(start, end)
    .replace(/<!--.*?-->\n\n/, '')
    .trimEnd();
}

/** Serves the prompts on `ctx.server`; returns them with their arguments. */
export function registerPrompts(ctx: ServerContext): PromptIndex {
  const prompts = new Map<string, readonly PromptArgument[]>();
  withHandlerWrapped(
    ctx.server,
    GetPromptRequestSchema,
    (handler) => async (request, extra) => {
      const { name, arguments: given = {} } = (request as GetPromptRequest).params;
      const taken = prompts.get(name);
      const problem = taken === undefined ? null : promptArgumentProblem(name, taken, given);
      if (problem !== null) throw new McpError(ErrorCode.InvalidParams, problem);
      return handler(request, extra);
    },
    () => registerEach(ctx, prompts),
  );
  return prompts;
}

/** Registers every prompt, and its arguments in `prompts`. */
function registerEach(ctx: ServerContext, prompts: Map<string, readonly PromptArgument[]>): void {
  const { server } = ctx;
  const link = (uri: string, name: string, description: string, mimeType: string) => ({
    role: 'user' as const,
    content: { type: 'resource_link' as const, uri, name, description, mimeType },
  });
  const conventionLink = (topic: string) =>
    link(`codelabgen://conventions/${topic}`, `conventions-${topic}`, `The ${topic} conventions`, 'text/markdown');
  const statusLink = link(
    'codelabgen://schema/worker-status',
    'schema-worker-status',
    'The worker status schema',
    'application/schema+json',
  );

  /** The brief of `args` (role, lesson or phase, course) as `brief --json` gives it; a refusal is InvalidParams. */
  const brief = async (args: Record<string, string | undefined>): Promise<BriefDocument> => {
    const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
    const outcome = await ctx.run(commandNamed('brief'), given);
    if (outcome.exitCode !== 0)
      throw new McpError(ErrorCode.InvalidParams, briefErrorInMcpTerms(outcome.error ?? `exit ${outcome.exitCode}`));
    const document = JSON.parse(outcome.stdout) as BriefDocument;
    return { ...document, text: inMcpTerms(document.text, document.course) };
  };

  prompts.set('orchestrate', []);
  server.registerPrompt(
    'orchestrate',
    {
      title: 'Orchestrate a course generation',
      description:
        'How an orchestrator agent drives a course from init to done in tool calls (docs/mcp.md); each worker role has a prompt of its name with its brief.',
    },
    () => ({
      messages: [
        { role: 'user', content: { type: 'text', text: orchestrateText() } },
        link('codelabgen://next', 'next', 'What to do next (state_next), with next_call', 'application/json'),
        link('codelabgen://stages', 'stages', 'The stages, their work and worker roles', 'application/json'),
        link('codelabgen://state', 'state', 'The whole course state', 'application/json'),
        ...CONVENTION_TOPICS.map(conventionLink),
      ],
    }),
  );

  for (const role of LESSON_ROLES) {
    const topics = roleConventions(role.role);
    const argsSchema = {
      lesson: z.string().describe('lesson id, e.g. "1.2" (completion offers the course\'s)'),
      course: COURSE.schema as z.ZodOptional<z.ZodString>,
    };
    prompts.set(role.role, argumentsOf(argsSchema));
    server.registerPrompt(
      role.role,
      {
        title: `Brief for the ${role.role}`,
        description:
          `The ${role.role}'s whole brief for one lesson (at stage ${role.stage}): the lesson's spec, files, ` +
          `test command, conventions, prerequisites, sources and the status to end with (stage ` +
          `${role.reports}). Give it to the worker you start after state_task_start.`,
        argsSchema,
      },
      async ({ lesson, course }) => ({
        description: `${role.role} for lesson ${lesson}`,
        messages: [
          { role: 'user', content: { type: 'text', text: (await brief({ role: role.role, lesson, course })).text } },
          ...topics.map(conventionLink),
          statusLink,
        ],
      }),
    );
  }

  for (const role of PHASE_ROLES) {
    const phases = [role.phase, ...role.alsoFor];
    const argsSchema = {
      ...(phases.length > 1
        ? {
            phase: z
              .string()
              .optional()
              .describe(`the phase: ${BRIEFED_PHASES.join(', ')} (default: ${role.phase})`),
          }
        : {}),
      course: COURSE.schema as z.ZodOptional<z.ZodString>,
    };
    prompts.set(role.role, argumentsOf(argsSchema));
    server.registerPrompt(
      role.role,
      {
        title: `Brief for the ${role.role} (a phase task)`,
        description:
          `The ${role.role}'s whole brief for phase ${phases.join(', ')}: the artifacts to write with their ` +
          `paths and schemas, what to read first, what the phase still needs and the status to end with. Give ` +
          `it to the worker you start after state_task_start with phase and role ${role.role}.`,
        argsSchema,
      },
      async (args: { phase?: string; course?: string }) => {
        const document = await brief({ role: role.role, phase: args.phase, course: args.course });
        return {
          description: `${role.role} for phase ${document.phase}`,
          messages: [{ role: 'user', content: { type: 'text', text: document.text } }, statusLink],
        };
      },
    );
  }
}
