// The MCP tools, generated from the command table (cli/commands.ts): one tool per command an agent
// drives the protocol with, its input schema derived from the command's positionals and options,
// its description from the help, its hints from `changesState`. docs/mcp.md lists them (generated).
import { z } from 'zod';
import { PHASES, STAGES, WorkerStatusSchema } from '../../content-schemas/index.ts';
import { COMMANDS } from '../commands.ts';
import type { CommandSpec, OptionSpec } from '../spec.ts';

/** Commands that are no tools, and why (docs/mcp.md, "When to use the CLI"). */
export const NOT_TOOLS: Readonly<Record<string, string>> = {
  init: 'creates a course; the server serves one that exists',
  'state rebuild': 'repairs a broken state.json, a step for a person after a crash',
  'new module': 'writes a lesson from a template: authoring by hand',
  'new lesson': 'writes a lesson from a template: authoring by hand',
  'verify merge': 'summarizes CI shards on a CI machine',
  'site build': 'runs Astro for a minute or more; run it as a command',
  'state watch': 'follows the course until interrupted; subscribe to the resources instead',
  'site dev': 'a long-running preview server',
  'site preview': 'a long-running preview server',
  completion: 'a shell completion script',
  mcp: 'the server itself',
};

/** Commands that write although the table does not mark them as changing state (orchestrator only). */
const WRITES = new Set(['state task heartbeat', 'verify', 'report']);
/** Changes that only add or move forward (a fact, a task, a run, a report, a phase): never undo or block work. */
const ADDITIVE = new Set(['state log', 'state phase', 'state unblock', 'state task start', 'state task heartbeat', 'state task done', 'state task fail', 'verify', 'report', 'register']);
/** Calling twice with the same arguments leaves the course as calling once. */
const IDEMPOTENT = new Set(['register', 'report']);

type Value = string | boolean | string[];

export interface ToolParam {
  /** Property name in the tool's arguments (snake_case). */
  name: string;
  schema: z.ZodType;
  /** A positional (in order), an option (--name), or a document read as stdin by `-`. */
  to: { kind: 'positional' } | { kind: 'option'; option: string; spec: OptionSpec } | { kind: 'document'; option: string | null };
}

export interface McpTool {
  name: string;
  command: CommandSpec;
  title: string;
  description: string;
  params: ToolParam[];
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const positionalHelp: Record<string, string> = {
  id: 'lesson id, e.g. "1.2"',
  lesson: 'lesson id, e.g. "1.2"',
  stage: 'lesson stage',
  next: 'the next phase',
  kind: 'what kind of fact, e.g. source-unreachable',
  task: 'task id, e.g. "t7"',
  name: 'schema name (see schema_list)',
  topic: 'one topic; none: all of them',
};

const DOCUMENT = z
  .union([WorkerStatusSchema, z.string().max(1_000_000)])
  .describe('the worker\'s status: the JSON object, or its whole answer as text (the last JSON block is validated, as for a FILE)');

/** A tool's name: the command's words joined by "_" ("state task start" → state_task_start). */
export function toolName(command: string): string {
  return command.replace(/ /g, '_');
}

/** The schema of a positional or option, by its name: enums where the protocol has them. */
function schemaFor(name: string, help: string, spec?: OptionSpec): z.ZodType {
  if (name === 'stage' || name === 'stage-at-least') return z.enum(STAGES).describe(help);
  if (name === 'next' || name === 'phase') return z.enum(PHASES).describe(help);
  if (name === 'timeout' || name === 'jobs') return z.number().int().min(1).describe(help);
  if (name === 'data') return z.record(z.string(), z.string()).describe(`${help}: an object of key → value`);
  if (spec?.type === 'boolean') return z.boolean().describe(help);
  if (spec?.multiple) return z.array(z.string()).describe(help);
  return z.string().describe(help);
}

/** Positionals from the usage text: <name> (required), [NAME] (optional), [a|b|c] (an enum named topic), FILE|- (a document). */
function positionalParams(spec: CommandSpec): ToolParam[] {
  const min = spec.positionals?.min ?? 0;
  const tokens = (spec.args ?? '').split(/\s+/).filter((token) => /^<[\w-]+>$|^\[[\w|-]+\]$|^FILE\|-$/.test(token));
  return tokens.map((token, index): ToolParam => {
    if (token === 'FILE|-') return { name: 'status', schema: DOCUMENT, to: { kind: 'document', option: null } };
    const choices = token.includes('|') ? token.slice(1, -1).split('|') : null;
    const name = choices ? 'topic' : token.slice(1, -1).toLowerCase();
    const help = positionalHelp[name] ?? name;
    const schema = choices ? z.enum(choices as [string, ...string[]]).describe(help) : schemaFor(name, help);
    return { name, schema: index < min ? schema : schema.optional(), to: { kind: 'positional' } };
  });
}

function optionParams(spec: CommandSpec): ToolParam[] {
  return Object.entries(spec.options ?? {})
    .filter(([option]) => option !== 'json')
    .map(([option, optionSpec]): ToolParam => {
      const name = option.replace(/-/g, '_');
      if (optionSpec.value === 'FILE|-') return { name, schema: DOCUMENT.optional(), to: { kind: 'document', option } };
      return { name, schema: schemaFor(option, optionSpec.help, optionSpec).optional(), to: { kind: 'option', option, spec: optionSpec } };
    });
}

function describe(spec: CommandSpec): string {
  const summary = `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`;
  const json = spec.options?.json ? ' Returns the JSON document of `--json`.' : '';
  return `${summary}${spec.description ? ` ${spec.description}` : ''}${json} CLI: codelabgen ${spec.name}${spec.args ? ` ${spec.args}` : ''}.`;
}

export function toolOf(spec: CommandSpec): McpTool {
  const writes = spec.changesState === true || WRITES.has(spec.name);
  return {
    name: toolName(spec.name),
    command: spec,
    title: `codelabgen ${spec.name}`,
    description: describe(spec),
    params: [...positionalParams(spec), ...optionParams(spec)],
    annotations: {
      title: `codelabgen ${spec.name}`,
      readOnlyHint: !writes,
      destructiveHint: writes && !ADDITIVE.has(spec.name),
      idempotentHint: !writes || IDEMPOTENT.has(spec.name),
      openWorldHint: false,
    },
  };
}

/** Every tool, in table order. */
export function mcpTools(commands: readonly CommandSpec[] = COMMANDS): McpTool[] {
  return commands.filter((spec) => !(spec.name in NOT_TOOLS)).map(toolOf);
}

/** The zod shape of a tool's arguments (the SDK turns it into the JSON Schema hosts see). */
export function inputShape(tool: McpTool): Record<string, z.ZodType> {
  return Object.fromEntries(tool.params.map((param) => [param.name, param.schema]));
}

export interface Invocation {
  values: Record<string, Value | undefined>;
  positionals: string[];
  /** The equivalent CLI arguments (recorded in events as the command line). */
  argv: string[];
  /** What `-` reads: the document given inline. */
  stdin: string | null;
}

/** Tool arguments (already validated against inputShape) → the command's options and positionals. */
export function toInvocation(tool: McpTool, args: Record<string, unknown>, course: string | undefined): Invocation {
  const values: Record<string, Value | undefined> = {};
  const positionals: string[] = [];
  const options: string[] = [];
  let stdin: string | null = null;
  for (const param of tool.params) {
    const given = args[param.name];
    if (given === undefined) continue;
    if (param.to.kind === 'document') {
      stdin = typeof given === 'string' ? given : JSON.stringify(given);
      if (param.to.option === null) positionals.push('-');
      else values[param.to.option] = '-';
      if (param.to.option !== null) options.push(`--${param.to.option}`, '-');
    } else if (param.to.kind === 'positional') positionals.push(String(given));
    else {
      const { option } = param.to;
      if (typeof given === 'boolean') {
        if (given) values[option] = true;
        if (given) options.push(`--${option}`);
      } else if (Array.isArray(given) || (typeof given === 'object' && given !== null)) {
        const list = Array.isArray(given) ? given.map(String) : Object.entries(given).map(([key, value]) => `${key}=${String(value)}`);
        values[option] = list;
        for (const item of list) options.push(`--${option}`, item);
      } else {
        values[option] = String(given);
        options.push(`--${option}`, String(given));
      }
    }
  }
  if (tool.command.options?.json) {
    values.json = true;
    options.push('--json');
  }
  if (course !== undefined) values.course = course;
  return { values, positionals, argv: [...tool.command.name.split(' '), ...positionals, ...options], stdin };
}
