// The server's prompts: `orchestrate` (docs/agents.md, with links to the resources it reads), one
// brief per worker role of the stage table for one lesson, and the researcher of a phase task.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import agentsDoc from '../../docs/agents.md';
import { CONVENTION_TOPICS, getOwn, STAGE_TABLE } from '../../pipeline/index.ts';
import { printable, TASK_PHASES } from '../../pipeline/state-commands.ts';
import { commandNamed, type ServerContext } from './server-context.ts';
import { inToolTerms } from './tool-terms.ts';

/** The conventions each worker role follows (conventions <topic>). */
const ROLE_CONVENTIONS: Readonly<Record<string, readonly string[]>> = {
  'readalong-writer': ['readalong', 'diagrams'],
  'notes-writer': ['notes', 'diagrams'],
  'lesson-reviewer': ['review', 'readalong', 'notes'],
};

/** Serves the prompts on `ctx.server`. */
export function registerPrompts(ctx: ServerContext): void {
  const { server, tools } = ctx;
  const link = (uri: string, name: string, description: string, mimeType: string) => ({
    role: 'user' as const,
    content: { type: 'resource_link' as const, uri, name, description, mimeType },
  });
  server.registerPrompt(
    'orchestrate',
    {
      title: 'Orchestrate a course generation',
      description:
        'How an orchestrator agent drives a course from init to done (docs/agents.md); with this server, each `codelabgen <command>` is the tool of the same name with "_" for spaces.',
    },
    () => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `${agentsDoc}\n\nThrough this MCP server, every \`codelabgen <words>\` command above is the tool \`<words joined by _>\` (state next → state_next) with the same options as arguments; --json is implied, --course is the call's \`course\` argument (default: the server's). state_next's next_call is the call that takes the next step; each worker role has a prompt of its name (code-author, ...) that briefs a worker on one lesson.`,
          },
        },
        link('codelabgen://next', 'next', 'What to do next (state_next), with next_call', 'application/json'),
        link('codelabgen://stages', 'stages', 'The stages, their work and worker roles', 'application/json'),
        link('codelabgen://state', 'state', 'The whole course state', 'application/json'),
        ...CONVENTION_TOPICS.map((topic) =>
          link(
            `codelabgen://conventions/${topic}`,
            `conventions-${topic}`,
            `The ${topic} conventions`,
            'text/markdown',
          ),
        ),
      ],
    }),
  );

  // A prompt per worker role, from the stage table (state stages) and the conventions a role follows.
  for (const row of STAGE_TABLE.filter((candidate) => candidate.role !== 'orchestrator')) {
    const topics = ROLE_CONVENTIONS[row.role] ?? [];
    server.registerPrompt(
      row.role,
      {
        title: `Brief ${/^[aeiou]/.test(row.role) ? 'an' : 'a'} ${row.role}`,
        description: `The ${row.role}'s task for one lesson at stage ${row.stage}: ${row.work.replace(/<id>/g, 'ID')}. Give it to the worker you start after state_task_start.`,
        argsSchema: { lesson: z.string().describe('lesson id, e.g. "1.2" (completion offers the course\'s)') },
      },
      async ({ lesson: id }) => {
        const lesson = getOwn((await ctx.stateOf()).lessons, id);
        if (lesson === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown lesson "${printable(id)}"`);
        const status = {
          lesson: id,
          status: 'ok',
          stage: row.next_stage,
          artifacts: ['<the files you wrote, relative to the course>'],
        };
        const text = [
          `You are the ${row.role} of lesson ${id} ("${String(lesson.title)}", module ${String(lesson.module_id)} "${String(lesson.module_title)}") of this course; its folder is ${String(lesson.dir)}.`,
          lesson.stage === row.stage
            ? ''
            : `Note: the lesson is at stage ${String(lesson.stage)}; a ${row.role} works on lessons at ${row.stage}.`,
          `Your work: ${inToolTerms(row.work.replace(/<id>/g, id), tools)}.`,
          topics.length === 0
            ? ''
            : `Follow the conventions (${topics.map((topic) => `codelabgen://conventions/${topic}`).join(', ')}, linked below).`,
          'Log a notable fact (an unreachable source, a surprising behaviour) with state_log; renew a long task with state_task_heartbeat.',
          `End your answer with your status as a JSON block (schema: codelabgen://schema/worker-status), e.g.\n\`\`\`json\n${JSON.stringify(status)}\n\`\`\``,
          `The orchestrator checks it (status_check), records it (state_task_done with result) and then: ${inToolTerms(row.then.replace(/<id>/g, id), tools)}.`,
        ]
          .filter((line) => line !== '')
          .join('\n\n');
        return {
          description: `${row.role} for lesson ${id}`,
          messages: [
            { role: 'user', content: { type: 'text', text } },
            ...topics.map((topic) =>
              link(
                `codelabgen://conventions/${topic}`,
                `conventions-${topic}`,
                `The ${topic} conventions`,
                'text/markdown',
              ),
            ),
            link(
              'codelabgen://schema/worker-status',
              'schema-worker-status',
              'The worker status schema',
              'application/schema+json',
            ),
          ],
        };
      },
    );
  }
  server.registerPrompt(
    'researcher',
    {
      title: 'Brief a researcher (a phase task)',
      description: `The worker of a phase task (${TASK_PHASES.join(', ')}): what the phase requires, from state_next's actions. Give it to the worker you start after state_task_start with phase and role researcher.`,
      argsSchema: { phase: z.string().describe(`the phase: ${TASK_PHASES.join(', ')}`) },
    },
    async ({ phase }) => {
      if (!(TASK_PHASES as readonly string[]).includes(phase))
        throw new McpError(
          ErrorCode.InvalidParams,
          `phase "${printable(phase)}": phase tasks are for ${TASK_PHASES.join(', ')}`,
        );
      const outcome = await ctx.run(commandNamed('state next'), {});
      if (outcome.exitCode !== 0)
        throw new McpError(ErrorCode.InvalidParams, inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
      const plan = JSON.parse(outcome.stdout) as {
        phase: string;
        actions: Array<{ description: string; path?: string; done: boolean }>;
      };
      const actions = plan.phase === phase ? plan.actions : [];
      const text = [
        `You are the researcher of phase ${phase} of this course.`,
        plan.phase === phase
          ? 'What the phase requires before it can be left:'
          : `Note: the course is at phase ${plan.phase}; the actions of ${phase} show once it is the current phase (state_next).`,
        ...actions.map(
          (action) => `- ${action.description}${action.path ? ` (${action.path})` : ''}${action.done ? ' — done' : ''}`,
        ),
        'Write each file in its schema (codelabgen://schema/<name>: source, topic, curriculum); log a notable fact with state_log. End with a short summary of what you wrote; the orchestrator records it with state_task_done.',
      ].join('\n');
      return {
        description: `researcher for phase ${phase}`,
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
  );
}
