// The MCP tools, generated from the command table (cli/commands.ts): one tool per command an agent
// drives the protocol with, its input schema derived from the command's positionals and options,
// its description from the help, its hints from `changesState`. docs/mcp.md lists them (generated).
import { z } from 'zod';
import { findSchemaEntry, PHASES, SCHEMA_NAMES, STAGES, toJsonSchema } from '../../content-schemas/index.ts';
import { printable } from '../../pipeline/course.ts';
import { DATA_KEY } from '../../pipeline/protocol/log.ts';
import { TASK_PHASES } from '../../pipeline/protocol/tasks.ts';
import { COMMANDS } from '../commands.ts';
import type { CommandSpec, OptionSpec } from '../spec.ts';

/** Commands that are no tools, and why (docs/mcp.md, "When to use the CLI"). */
export const NOT_TOOLS: Readonly<Record<string, string>> = {
  'verify merge': 'summarizes CI shards on a CI machine',
  'site dev': 'a long-running preview server',
  'site preview': 'a long-running preview server',
  completion: 'a shell completion script',
  mcp: 'the server itself',
};

/** Commands that write although the table does not mark them as changing state (orchestrator only). */
const WRITES = new Set(['state task heartbeat', 'verify', 'report', 'state rebuild', 'site build']);
/** Changes that only add or move forward (a fact, a task, a run, a report, a phase): never undo or block work. */
const ADDITIVE = new Set(['state log', 'state phase', 'state unblock', 'state task start', 'state task heartbeat', 'state task done', 'state task fail', 'verify', 'report', 'register', 'init', 'new module', 'new lesson', 'site build']);
/** Calling twice with the same arguments leaves the course as calling once. */
const IDEMPOTENT = new Set(['register', 'report', 'state rebuild']);

type Value = string | boolean | string[];

export interface ToolParam {
  /** Property name in the tool's arguments (snake_case). */
  name: string;
  schema: z.ZodType;
  /** A positional (in order), an option (--name), or a document read as stdin by `-`. */
  to: { kind: 'positional' } | { kind: 'option'; option: string; spec: OptionSpec } | { kind: 'document'; option: string | null } | { kind: 'course' };
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
  title: 'its title',
  module_id: 'module id, e.g. "2"',
};

const COURSE_HELP = 'the course directory, absolute or relative to the server\'s working directory (default: the server\'s --course, else $CODELABGEN_COURSE, else the client\'s first root)';
/** The `course` argument of every tool that works on a course (init: the directory to create). */
const COURSE: ToolParam = { name: 'course', schema: z.string().min(1).max(4096).describe(COURSE_HELP).optional(), to: { kind: 'course' } };

/** Whether a command works on a course, so its tool takes `course`. */
function takesCourse(spec: CommandSpec): boolean {
  return spec.needsCourse !== false || spec.name === 'init';
}

const DOCUMENT_HELP = 'the worker\'s status: the JSON object (schema worker-status), or its whole answer as text (the last JSON block is validated, as for a FILE)';
/**
 * A worker's status: any object or text passes here and the command validates it, so a wrong one is
 * refused with the CLI's own reason; hosts see the worker-status schema (see documentJsonSchema).
 */
const DOCUMENT = z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown())]).describe(DOCUMENT_HELP);

/** A lesson id: "1.2", or the number 1.2 (read as its shortest text: 1.10 as a number is "1.1"). */
const LESSON_ID = z.union([z.string().max(64), z.number()]);

/** Options that mean nothing over MCP, where --json is implied (`state show --all` only widens the text summary). */
const NOT_ARGUMENTS: Readonly<Record<string, readonly string[]>> = { 'state show': ['all'] };

/** A tool's name: the command's words joined by "_" ("state task start" → state_task_start). */
export function toolName(command: string): string {
  return command.replace(/ /g, '_');
}

/** The schema of a positional or option, by its name: enums where the protocol has them. */
function schemaFor(name: string, help: string, spec?: OptionSpec): z.ZodType {
  if (name === 'stage' || name === 'stage-at-least') return z.enum(STAGES).describe(help);
  // Only the phases a call can name: `state phase` never moves to init; phase tasks exist for some phases.
  if (name === 'next') return z.enum(PHASES.filter((phase) => phase !== 'init') as [string, ...string[]]).describe(help);
  if (name === 'phase') return z.enum(TASK_PHASES as [string, ...string[]]).describe(help);
  if (name === 'id' || name === 'lesson') return LESSON_ID.describe(help);
  if (name === 'name') return z.enum(SCHEMA_NAMES as [string, ...string[]]).describe(help);
  if (name === 'timeout' || name === 'jobs') return z.number().int().min(1).describe(help);
  // Keys as the CLI takes them (a key with "=" would be split at it); the values are strings.
  if (name === 'data') return z.record(z.string().regex(DATA_KEY), z.string()).describe(`${help}: an object of key → value (keys: letters, digits, "_", "." or "-", at most 64)`);
  if (spec?.type === 'boolean') return z.boolean().describe(help);
  if (spec?.multiple) return z.array(z.string()).describe(help);
  return z.string().describe(help);
}

/** Positionals from the usage text: <name> (required), [NAME] (optional), [a|b|c] (an enum named topic), FILE|- (a document). */
function positionalParams(spec: CommandSpec): ToolParam[] {
  const min = spec.positionals?.min ?? 0;
  // init's [DIR] is the tool's `course`.
  const tokens = (spec.args ?? '').split(/\s+/).map((token) => token.replace(/^"(.*)"$/, '$1')).filter((token) => /^<[\w-]+>$|^\[[\w|-]+\]$|^FILE\|-$/.test(token) && !(spec.name === 'init' && token === '[DIR]'));
  return tokens.map((token, index): ToolParam => {
    if (token === 'FILE|-') return { name: 'status', schema: DOCUMENT, to: { kind: 'document', option: null } };
    const choices = token.includes('|') ? token.slice(1, -1).split('|') : null;
    const name = choices ? 'topic' : token.slice(1, -1).toLowerCase().replace(/-/g, '_');
    const help = positionalHelp[name] ?? name;
    const schema = choices ? z.enum(choices as [string, ...string[]]).describe(help) : schemaFor(name, help);
    return { name, schema: index < min ? schema : schema.optional(), to: { kind: 'positional' } };
  });
}

function optionParams(spec: CommandSpec): ToolParam[] {
  const skipped = NOT_ARGUMENTS[spec.name] ?? [];
  return Object.entries(spec.options ?? {})
    .filter(([option]) => option !== 'json' && !skipped.includes(option))
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
    params: [...positionalParams(spec), ...optionParams(spec), ...(takesCourse(spec) ? [COURSE] : [])],
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

/** What checks a tool's arguments: strict, so an unknown or misspelled argument is refused, not dropped. */
export function inputSchema(tool: McpTool): z.ZodObject {
  return z.strictObject(Object.fromEntries(tool.params.map((param) => [param.name, param.schema])));
}

/** A schema of content-schemas/ as a JSON Schema to embed (no $schema, $id). */
function embeddedSchema(name: string): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = toJsonSchema(findSchemaEntry(name)!);
  return rest;
}

/** The JSON Schema hosts see: inputSchema's, with a worker's status typed and state_task_start's lesson-or-phase rule. */
export function inputJsonSchema(tool: McpTool): Record<string, unknown> {
  const { $schema: _schema, ...json } = z.toJSONSchema(inputSchema(tool), { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  const properties = json.properties as Record<string, Record<string, unknown>>;
  for (const param of tool.params) {
    if (param.to.kind === 'document') properties[param.name] = { description: DOCUMENT_HELP, anyOf: [embeddedSchema('worker-status'), { type: 'string', maxLength: 1_000_000 }] };
  }
  if (tool.command.name === 'state task start') {
    json.oneOf = [
      { required: ['lesson'], not: { required: ['phase'] } },
      { required: ['phase', 'role'], not: { required: ['lesson'] } },
    ];
  }
  return json;
}

type Issue = z.core.$ZodIssue & { input?: unknown };

function shown(value: unknown): string {
  return typeof value === 'string' ? `"${printable(value)}"` : printable(JSON.stringify(value) ?? String(value));
}

/** One argument problem in the words of the CLI's refusals. */
function describeIssue(tool: McpTool, issue: Issue): string {
  const where = issue.path.map(String).join('.');
  const names = tool.params.map((param) => param.name);
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${printable(key)}"`).join(', ')} (${tool.name} takes ${names.length === 0 ? 'no arguments' : names.join(', ')})`;
    case 'invalid_value':
      return `${where} ${shown(issue.input)}: expected one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_key':
      return `${issue.path.slice(0, -1).map(String).join('.')} key ${shown(issue.input)}: use letters, digits, "_", "." or "-" (at most 64)`;
    case 'invalid_type':
    case 'invalid_union': {
      if (issue.input === undefined) return `${where} is required`;
      const expected = issue.code === 'invalid_type' ? issue.expected : issue.errors.flat().map((sub) => ('expected' in sub ? String(sub.expected) : 'another value')).join(' or ');
      return `${where}: expected ${expected}, not ${shown(issue.input)}`;
    }
    case 'too_small':
    case 'too_big':
      return `${where} ${shown(issue.input)}: expected ${issue.code === 'too_small' ? 'at least' : 'at most'} ${String(issue.code === 'too_small' ? issue.minimum : issue.maximum)}${issue.origin === 'string' ? ' characters' : ''}`;
    default:
      return `${where === '' ? 'arguments' : where}: ${issue.message}`;
  }
}

/**
 * Checks a call's arguments against the tool's schema. Returns null when they fit, else the refusal
 * (`error: <tool>: <what is wrong>`), before anything runs.
 */
export function checkArguments(tool: McpTool, args: unknown): string | null {
  const parsed = inputSchema(tool).safeParse(args ?? {}, { reportInput: true });
  if (parsed.success) return null;
  return `error: ${tool.name}: ${parsed.error.issues.map((issue) => describeIssue(tool, issue as Issue)).join('; ')}`;
}

export interface Invocation {
  values: Record<string, Value | undefined>;
  positionals: string[];
  /** The equivalent CLI arguments (recorded in events as the command line). */
  argv: string[];
  /** What `-` reads: the document given inline. */
  stdin: string | null;
}

/** Tool arguments (already checked by checkArguments) → the command's options and positionals; `course` is the call's course, resolved (cli/mcp/server.ts). */
export function toInvocation(tool: McpTool, args: Record<string, unknown>, course: string | undefined): Invocation {
  const values: Record<string, Value | undefined> = {};
  const positionals: string[] = [];
  const options: string[] = [];
  let stdin: string | null = null;
  for (const param of tool.params) {
    const given = args[param.name];
    if (given === undefined || param.to.kind === 'course') continue;
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
        // The raw object's own keys (its "__proto__" too: the command refuses it as the CLI does); checkArguments
        // refused a key with "=", which the command would split at.
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
  if (course !== undefined && tool.command.name === 'init') positionals.push(course);
  else if (course !== undefined) values.course = course;
  return { values, positionals, argv: [...tool.command.name.split(' '), ...positionals, ...options], stdin };
}
