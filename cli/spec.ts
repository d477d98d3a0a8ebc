// The shape of a command in the command table (cli/commands.ts): options, positionals and help.
// Its code is loaded by name through cli/loaders.ts.
import type { Context } from './context.ts';
import type { ExitCode } from './exit-codes.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  help: string;
  /** Placeholder shown in help, e.g. DIR. */
  value?: string;
  short?: string;
  multiple?: boolean;
  /** The command refuses to run without it (init's --title); an MCP tool's argument is required. */
  required?: boolean;
}

export interface CommandModule {
  /** An EXIT constant; a problem is thrown as an error that carries its own exit code. */
  run(ctx: Context): Promise<ExitCode | void>;
}

export interface CommandSpec {
  /** Words that select the command, e.g. "state show". */
  name: string;
  /** Positional arguments as shown in usage, e.g. "<id> <stage>". */
  args?: string;
  positionals?: { min: number; max: number };
  summary: string;
  description?: string;
  options?: Record<string, OptionSpec>;
  examples?: string[];
  /** True when the command changes state (orchestrator only). */
  changesState?: boolean;
  /** True when it writes to the course without changing state (a run result, a report, a heartbeat). */
  writes?: boolean;
  /** True when its change only adds or moves forward (a fact, a task, a run, a phase): it never undoes or blocks work. */
  additive?: boolean;
  /** True when calling it twice with the same arguments leaves the course as calling once. */
  idempotent?: boolean;
  /** Why the command is no MCP tool (docs/mcp.md, "When to use the CLI"); without it, the command is the tool `toolName()`. */
  notATool?: string;
  /** False for commands that do not act on a course (init, schema). */
  needsCourse?: boolean;
}

/** Names as a list in a sentence: "a, b or c". */
export function listed(names: readonly string[], last: 'or' | 'and'): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}

export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  course: {
    type: 'string',
    value: 'DIR',
    help: 'course directory (default: $CODELABGEN_COURSE, else the nearest ancestor with .codelabgen/)',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};

export const JSON_OPTION: Record<string, OptionSpec> = {
  json: { type: 'boolean', help: 'print one JSON document on stdout' },
};
