// A tool's parameters, derived from its command's positionals and options: their names, their zod
// schemas (enums where the protocol has them) and what each maps back to on the command line.
import { z } from 'zod';
import { PHASES, SCHEMA_NAMES, STAGES } from '../../content-schemas/index.ts';
import { DATA_KEY, TASK_PHASES } from '../../pipeline/state-commands.ts';
import type { CommandSpec, OptionSpec } from '../spec.ts';
import type { ToolParam } from './tool-types.ts';

const positionalHelp: Record<string, string> = {
  id: 'lesson id, e.g. "1.2"',
  lesson: 'lesson id, e.g. "1.2"',
  stage: 'lesson stage',
  next: 'the next phase',
  kind: 'what kind of fact, e.g. source-unreachable',
  task: 'task id, e.g. "t7"',
  name: 'schema name (see schema_list)',
  topic: 'one topic; none: all of them',
  title: 'its title',
  module_id: 'module id, e.g. "2"',
};

const COURSE_HELP =
  "the course directory, absolute or relative to the server's working directory (default: the course the " +
  "server was started with, else $CODELABGEN_COURSE, else the client's first root)";
/** The `course` argument of every tool that works on a course (init: the directory to create). */
export const COURSE: ToolParam = {
  name: 'course',
  schema: z.string().min(1).max(4096).describe(COURSE_HELP).optional(),
  to: { kind: 'course' },
};

/** Whether a command works on a course, so its tool takes `course`. */
export function takesCourse(spec: CommandSpec): boolean {
  return spec.needsCourse !== false || spec.name === 'init';
}

export const DOCUMENT_HELP =
  "the worker's status: the JSON object (schema worker-status), or its whole answer as text (the last JSON block is validated, as for a FILE)";
/**
 * A worker's status: any object or text passes here and the command validates it, so a wrong one is
 * refused with the CLI's own reason; hosts see the worker-status schema (see documentJsonSchema).
 */
const DOCUMENT = z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown())]).describe(DOCUMENT_HELP);

/** A lesson id: "1.2", or the number 1.2 (matched against the course's ids by cli/mcp/tool-calls.ts: 1.10 as a number is 1.1). */
const LESSON_ID = z.union([z.string().max(64), z.number()]);

/** Options that mean nothing over MCP, where --json is implied (`state show --all` only widens the text summary). */
export const NOT_ARGUMENTS: Readonly<Record<string, readonly string[]>> = { 'state show': ['all'] };

/** The schema of a positional or option, by its name: enums where the protocol has them. */
function schemaFor(name: string, help: string, spec?: OptionSpec): z.ZodType {
  if (name === 'stage' || name === 'stage-at-least') return z.enum(STAGES).describe(help);
  // Only the phases a call can name: `state phase` never moves to init; phase tasks exist for some phases.
  if (name === 'next')
    return z.enum(PHASES.filter((phase) => phase !== 'init') as [string, ...string[]]).describe(help);
  if (name === 'phase') return z.enum(TASK_PHASES as [string, ...string[]]).describe(help);
  if (name === 'id' || name === 'lesson') return LESSON_ID.describe(help);
  if (name === 'name') return z.enum(SCHEMA_NAMES as [string, ...string[]]).describe(help);
  if (name === 'timeout' || name === 'jobs') return z.number().int().min(1).describe(help);
  // Keys as the CLI takes them (a key with "=" would be split at it); the values are strings.
  if (name === 'data')
    return z
      .record(z.string().regex(DATA_KEY), z.string())
      .describe(`${help}: an object of key → value (keys: letters, digits, "_", "." or "-", at most 64)`);
  if (spec?.type === 'boolean') return z.boolean().describe(help);
  if (spec?.multiple) return z.array(z.string()).describe(help);
  return z.string().describe(help);
}

/** Positionals from the usage text: <name> (required), [NAME] (optional), [a|b|c] (an enum named topic), FILE|- (a document). */
export function positionalParams(spec: CommandSpec): ToolParam[] {
  const min = spec.positionals?.min ?? 0;
  // init's [DIR] is the tool's `course`.
  const tokens = (spec.args ?? '')
    .split(/\s+/)
    .map((token) => token.replace(/^"(.*)"$/, '$1'))
    .filter(
      (token) => /^<[\w-]+>$|^\[[\w|-]+\]$|^FILE\|-$/.test(token) && !(spec.name === 'init' && token === '[DIR]'),
    );
  return tokens.map((token, index): ToolParam => {
    if (token === 'FILE|-') return { name: 'status', schema: DOCUMENT, to: { kind: 'document', option: null } };
    const choices = token.includes('|') ? token.slice(1, -1).split('|') : null;
    const name = choices ? 'topic' : token.slice(1, -1).toLowerCase().replace(/-/g, '_');
    const help = positionalHelp[name] ?? name;
    const schema = choices ? z.enum(choices as [string, ...string[]]).describe(help) : schemaFor(name, help);
    return { name, schema: index < min ? schema : schema.optional(), to: { kind: 'positional' } };
  });
}

export function optionParams(spec: CommandSpec): ToolParam[] {
  const skipped = NOT_ARGUMENTS[spec.name] ?? [];
  return Object.entries(spec.options ?? {})
    .filter(([option]) => option !== 'json' && !skipped.includes(option))
    .map(([option, optionSpec]): ToolParam => {
      const name = option.replace(/-/g, '_');
      if (optionSpec.value === 'FILE|-') return { name, schema: DOCUMENT.optional(), to: { kind: 'document', option } };
      const schema = schemaFor(option, optionSpec.help, optionSpec);
      return {
        name,
        schema: optionSpec.required ? schema : schema.optional(),
        to: { kind: 'option', option, spec: optionSpec },
      };
    });
}
