// A tool call's arguments: checked against the tool's input schema (refused in the CLI's words), then
// turned into the command's options, positionals and equivalent argv (cli/mcp/invoke.ts runs them).
import type { z } from 'zod';
import { printable } from '../../pipeline/state-commands.ts';
import { inputSchema } from './tool-schemas.ts';
import type { McpTool, Value } from './tool-types.ts';

type Issue = z.core.$ZodIssue & { input?: unknown };

function shown(value: unknown): string {
  return typeof value === 'string' ? `"${printable(value)}"` : printable(JSON.stringify(value) ?? String(value));
}

/** One argument problem in the words of the CLI's refusals. */
function describeIssue(tool: McpTool, issue: Issue): string {
  const where = issue.path.map(String).join('.');
  const names = tool.params.map((param) => param.name);
  // A missing argument, whatever its schema (an enum says "stage undefined: expected one of ..." otherwise).
  if (issue.input === undefined && issue.code !== 'unrecognized_keys' && where !== '') return `${where} is required`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return (
        `unknown argument${issue.keys.length > 1 ? 's' : ''} ` +
        `${issue.keys.map((key) => `"${printable(key)}"`).join(', ')} (${tool.name} takes ` +
        `${names.length === 0 ? 'no arguments' : names.join(', ')})`
      );
    case 'invalid_value':
      return `${where} ${shown(issue.input)}: expected one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_key':
      return `${issue.path.slice(0, -1).map(String).join('.')} key ${shown(issue.input)}: use letters, digits, "_", "." or "-" (at most 64)`;
    case 'invalid_type':
    case 'invalid_union': {
      if (issue.input === undefined) return `${where} is required`;
      const expected =
        issue.code === 'invalid_type'
          ? issue.expected
          : issue.errors
              .flat()
              .map((sub) => ('expected' in sub ? String(sub.expected) : 'another value'))
              .join(' or ');
      return `${where}: expected ${expected}, not ${shown(issue.input)}`;
    }
    case 'too_small':
    case 'too_big':
      return (
        `${where} ${shown(issue.input)}: expected ${issue.code === 'too_small' ? 'at least' : 'at most'} ` +
        `${String(issue.code === 'too_small' ? issue.minimum : issue.maximum)}` +
        `${issue.origin === 'string' ? ' characters' : ''}`
      );
    default:
      return `${where === '' ? 'arguments' : where}: ${issue.message}`;
  }
}

/**
 * Checks a call's arguments against the tool's schema, and that none the CLI takes on its command line holds a NUL.
 * Returns null when they fit, else the refusal (`error: <tool>: <what is wrong>`), before anything runs.
 */
export function checkArguments(tool: McpTool, args: unknown): string | null {
  const parsed = inputSchema(tool).safeParse(args ?? {}, { reportInput: true });
  if (!parsed.success)
    return `error: ${tool.name}: ${parsed.error.issues.map((issue) => describeIssue(tool, issue as Issue)).join('; ')}`;
  const given = (args ?? {}) as Record<string, unknown>;
  const withNul = tool.params.find((param) => param.to.kind !== 'document' && hasNul(given[param.name]));
  if (withNul === undefined) return null;
  return `error: ${tool.name}: ${withNul.name}: has a NUL character ("\\u0000"), which no command-line argument can hold`;
}

/**
 * Whether an argument holds a NUL character (a string, or a key or value of a `data` object): the CLI never gets one
 * (no command line can carry it), and a path with one is no path (Node throws on it; `site_build` cannot start its child).
 * A document (`status`, `result`) is read as a file or stdin is, so it is not checked here.
 */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\0') || hasNul(item));
}

export interface Invocation {
  values: Record<string, Value | undefined>;
  positionals: string[];
  /** The equivalent CLI arguments (recorded in events as the command line). */
  argv: string[];
  /** What `-` reads: the document given inline. */
  stdin: string | null;
}

/**
 * Tool arguments (already checked by checkArguments) → the command's options and positionals; `course` is the call's
 * course, resolved (cli/mcp/server-context.ts).
 */
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
        const list = Array.isArray(given)
          ? given.map(String)
          : Object.entries(given).map(([key, value]) => `${key}=${String(value)}`);
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
