// The MCP tools, generated from the command table (cli/commands.ts): one tool per command an agent
// drives the protocol with, its input schema derived from the command's positionals and options,
// its description from the help, its hints from `changesState`. docs/mcp.md lists them (generated).
import { z } from 'zod';
import { findSchemaEntry, PHASES, SCHEMA_NAMES, STAGES, toJsonSchema } from '../../content-schemas/index.ts';
import { DATA_KEY, printable, TASK_PHASES } from '../../pipeline/state-commands.ts';
import { COMMANDS } from '../commands.ts';
import type { CommandSpec, OptionSpec } from '../spec.ts';

/** Commands that are no tools, and why (docs/mcp.md, "When to use the CLI"). */
export const NOT_TOOLS: Readonly<Record<string, string>> = {
  'verify merge': 'summarizes CI shards on a CI machine',
  'state watch': 'follows the course until interrupted; subscribe to the resources instead',
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

/** A lesson id: "1.2", or the number 1.2 (matched against the course's ids by cli/mcp/server.ts: 1.10 as a number is 1.1). */
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

/** The command's help in tool terms: its own options as arguments (`--approved` → `approved: true`). */
function describe(spec: CommandSpec): string {
  const summary = `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`;
  const json = spec.options?.json ? ' Returns the JSON document of `--json` (also as structuredContent).' : '';
  const text = `${summary}${spec.description ? ` ${spec.description}` : ''}`.replace(/--([a-z][a-z-]*)/g, (whole, option: string) => {
    const optionSpec = spec.options?.[option];
    if (!optionSpec || option === 'json') return whole;
    return optionSpec.type === 'boolean' ? `\`${option.replace(/-/g, '_')}: true\`` : `\`${option.replace(/-/g, '_')}\``;
  });
  return `${text}${json} (CLI: \`${spec.name}${spec.args ? ` ${spec.args}` : ''}\`)`;
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

/** A tool call: what `next_call` holds and what inToolTerms writes for a command line. */
export interface ToolCall {
  tool: string;
  arguments: Record<string, string | boolean>;
}

const TOKEN = /^(?:"[^"]*"|[^\s"]+)/;

/**
 * The command line at the start of `text` ("state phase topics --approved, then ...") as a tool call,
 * and how many characters it took; null when it names no tool.
 */
export function commandAsCall(text: string, tools: readonly McpTool[] = mcpTools()): { call: ToolCall; length: number } | null {
  const tokens: Array<{ text: string; end: number }> = [];
  for (let at = 0; at < text.length; ) {
    const match = TOKEN.exec(text.slice(at));
    if (!match) break;
    tokens.push({ text: match[0], end: at + match[0].length });
    at += match[0].length;
    if (text[at] !== ' ' || text[at + 1] === ' ') break; // a command ends at two spaces or the end of its line
    at += 1;
  }
  const tool = [...tools].sort((a, b) => b.command.name.length - a.command.name.length).find((candidate) => {
    const words = candidate.command.name.split(' ');
    return words.every((word, index) => tokens[index]?.text === word);
  });
  if (!tool) return null;
  const positionals = tool.params.filter((param) => param.to.kind === 'positional');
  const args: Record<string, string | boolean> = {};
  let used = tool.command.name.split(' ').length;
  let end = tokens[used - 1]!.end;
  let positional = 0;
  while (used < tokens.length) {
    const token = tokens[used]!.text;
    const trailing = /[,;.:)]+$/.exec(token)?.[0] ?? '';
    const bare = token.slice(0, token.length - trailing.length).replace(/^"(.*)"$/, '$1');
    if (bare.startsWith('--')) {
      const option = bare.slice(2);
      const param = tool.params.find((candidate) => candidate.to.kind === 'option' && candidate.to.option === option);
      if (option === 'json' || option === 'help' || NOT_ARGUMENTS[tool.command.name]?.includes(option)) {
        // implied, or meaningless over MCP
      } else if (!param || param.to.kind !== 'option') break;
      else if (param.to.spec.type === 'boolean') args[param.name] = true;
      else {
        const value = tokens[used + 1];
        if (!value) break;
        used += 1;
        args[param.name] = value.text.replace(/[,;.:)]+$/, '').replace(/^"(.*)"$/, '$1');
      }
    } else if (positional < positionals.length && bare !== '' && !/^(?:or|then|and)$/.test(bare)) {
      args[positionals[positional]!.name] = bare;
      positional += 1;
    } else break;
    end = tokens[used]!.end - (trailing === '' ? 0 : trailing.length);
    used += 1;
    if (trailing !== '') break;
  }
  return { call: { tool: tool.name, arguments: args }, length: end };
}

/** A tool call as prose: `state_phase {"next":"topics","approved":true}`. */
export function callText(call: ToolCall): string {
  return Object.keys(call.arguments).length === 0 ? call.tool : `${call.tool} ${JSON.stringify(call.arguments)}`;
}

/** `text` with every `codelabgen <command>` written as the tool call an MCP client makes (hints, next steps, descriptions). */
export function inToolTerms(text: string, tools: readonly McpTool[] = mcpTools()): string {
  let out = '';
  let rest = text;
  for (let at = rest.indexOf('codelabgen '); at !== -1; at = rest.indexOf('codelabgen ')) {
    const found = commandAsCall(rest.slice(at + 'codelabgen '.length), tools);
    if (!found) {
      out += rest.slice(0, at + 'codelabgen '.length);
      rest = rest.slice(at + 'codelabgen '.length);
      continue;
    }
    out += `${rest.slice(0, at)}${callText(found.call)}`;
    rest = rest.slice(at + 'codelabgen '.length + found.length);
  }
  return `${out}${rest}`;
}

/** Commands whose JSON answer is one document of content-schemas/ (or holds one). */
const OUTPUT_DOCUMENTS: Readonly<Record<string, () => Record<string, unknown>>> = {
  'state show': () => embeddedSchema('state'),
  report: () => embeddedSchema('report'),
  'status check': () => embeddedSchema('worker-status'),
  'schema show': () => ({ type: 'object', description: 'a JSON Schema (draft 2020-12)' }),
  'state next': () => ({
    type: 'object',
    properties: {
      phase: { enum: [...PHASES] },
      next_phase: { anyOf: [{ enum: [...PHASES] }, { type: 'null' }] },
      approval_needed: { type: 'boolean' },
      ready: { type: 'boolean' },
      done: { type: 'boolean' },
      next_step: { type: 'string', description: 'what to do now, in tool terms' },
      next_call: {
        description: 'the tool call that takes the next step once its work is done (a gate: after the user approved), or null when the next step is work or a decision',
        anyOf: [{ type: 'object', properties: { tool: { type: 'string' }, arguments: { type: 'object' } }, required: ['tool', 'arguments'], additionalProperties: false }, { type: 'null' }],
      },
      actions: { type: 'array' },
      lessons: { type: 'array' },
      blocked: { type: 'array' },
      running: { type: 'array' },
      interrupted: { type: 'array' },
    },
    required: ['phase', 'next_phase', 'next_step', 'next_call', 'lessons'],
  }),
  ...Object.fromEntries(['state task start', 'state task heartbeat', 'state task done', 'state task fail', 'state task reset'].map((name) => [name, () => ({ type: 'object', properties: { task: embeddedSchema('task') }, required: ['task'] })])),
  'state task list': () => ({ type: 'object', properties: { tasks: { type: 'array', items: embeddedSchema('task') } }, required: ['tasks'] }),
};

/** The outputSchema of a tool that answers JSON (structuredContent is that JSON); undefined for text answers (conventions). */
export function outputJsonSchema(tool: McpTool): Record<string, unknown> | undefined {
  const document = OUTPUT_DOCUMENTS[tool.command.name];
  // MCP clients (the SDK's among them) refuse a tools/list whose outputSchema is not `type: object` at the top (status_check's is an anyOf).
  if (document) return { type: 'object', ...document() };
  return tool.command.options?.json || tool.command.name === 'schema list' ? { type: 'object' } : undefined;
}
