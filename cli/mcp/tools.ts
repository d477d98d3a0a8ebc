// The MCP tools, generated from the command table (cli/commands.ts): one tool per command an agent
// drives the protocol with, its parameters from the command's positionals and options (tool-params.ts),
// its description from the help, its hints from `changesState`, `writes`, `additive` and `idempotent`;
// a command with `notATool` is none. docs/mcp.md lists them (generated).
import { COMMANDS } from '../commands.ts';
import type { CommandSpec } from '../spec.ts';
import { COURSE, optionParams, positionalParams, takesCourse } from './tool-params.ts';
import type { McpTool } from './tool-types.ts';

export type { McpTool } from './tool-types.ts';

/** Commands that are no tools, and why (docs/mcp.md, "When to use the CLI"): each command's `notATool`. */
export const NOT_TOOLS: Readonly<Record<string, string>> = Object.fromEntries(
  COMMANDS.flatMap((spec) => (spec.notATool === undefined ? [] : [[spec.name, spec.notATool]])),
);

/** A tool's name: the command's words joined by "_" ("state task start" → state_task_start). */
export function toolName(command: string): string {
  return command.replace(/ /g, '_');
}

/**
 * A command's positional placeholders as its tool's arguments: `<module-id>` → module_id, `[ID]` → id,
 * init's `[DIR]` → course (see positionalParams); an enum (`[a|b]`) or a document (`FILE|-`) names none.
 */
function placeholderArguments(spec: CommandSpec): Map<string, string> {
  const found = new Map<string, string>();
  for (const token of (spec.args ?? '').split(/\s+/)) {
    const placeholder = token.replace(/^"(.*)"$/, '$1').replace(/^\[([\w-]+)\]$/, '$1');
    if (!/^<[\w-]+>$|^[A-Z][A-Z_]*$/.test(placeholder)) continue;
    const name = spec.name === 'init' && placeholder === 'DIR' ? 'course' : placeholder.replace(/[<>]/g, '');
    found.set(placeholder, name.toLowerCase().replace(/-/g, '_'));
  }
  return found;
}

/**
 * The command's help in tool terms, outside its backticks (a command quoted whole, `state rework <id>
 * --note "why"`, is left for inToolTerms to write as a call): its own options as arguments (`--approved`
 * → `approved: true`), its positionals' placeholders as their arguments (init's "DIR/.codelabgen/" →
 * "`course`/.codelabgen/"; the course argument's description gives its default, so "(DIR defaults to ...)" goes).
 */
function describe(spec: CommandSpec): string {
  const summary = `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`;
  const json = spec.options?.json ? ' Returns its JSON document (also as structuredContent).' : '';
  const placeholders = placeholderArguments(spec);
  const text = `${summary}${spec.description ? ` ${spec.description}` : ''}`
    .split(/(`[^`]*`)/)
    .map((part, index) => {
      if (index % 2 === 1) return part;
      let out = part.replace(/--([a-z][a-z-]*)/g, (whole, option: string) => {
        const optionSpec = spec.options?.[option];
        if (option === 'json') return 'JSON'; // implied over MCP: "(--json: the whole state)" → "(JSON: the whole state)"
        if (!optionSpec) return whole;
        return optionSpec.type === 'boolean'
          ? `\`${option.replace(/-/g, '_')}: true\``
          : `\`${option.replace(/-/g, '_')}\``;
      });
      for (const [placeholder, name] of placeholders) {
        const escaped = placeholder.replace(/[<>-]/g, '\\$&');
        if (name === 'course') out = out.replace(new RegExp(String.raw` ?\(${escaped} defaults to [^)]*\)`, 'g'), '');
        // Not inside a path (`runs/<id>/`), where it is the path's part, not the argument.
        out = out.replace(new RegExp(String.raw`(?<![\w/<-])${escaped}(?![\w>-])`, 'g'), `\`${name}\``);
      }
      return out;
    })
    .join('');
  return `${text}${json}`;
}

/** Each command's tool, built once: a tool is derived from the table alone (its zod schemas too), and every call, hint and resource read asks for tools. */
const BUILT = new WeakMap<CommandSpec, McpTool>();

export function toolOf(spec: CommandSpec): McpTool {
  let tool = BUILT.get(spec);
  if (tool === undefined) BUILT.set(spec, (tool = buildTool(spec)));
  return tool;
}

/** A tool's title for people: the command's words, capitalized ("State task start"), no command line. */
function toolTitle(spec: CommandSpec): string {
  return `${spec.name[0]?.toUpperCase()}${spec.name.slice(1)}`;
}

function buildTool(spec: CommandSpec): McpTool {
  const writes = spec.changesState === true || spec.writes === true;
  return {
    name: toolName(spec.name),
    command: spec,
    title: toolTitle(spec),
    description: describe(spec),
    params: [...positionalParams(spec), ...optionParams(spec), ...(takesCourse(spec) ? [COURSE] : [])],
    annotations: {
      title: toolTitle(spec),
      readOnlyHint: !writes,
      destructiveHint: writes && spec.additive !== true,
      idempotentHint: !writes || spec.idempotent === true,
      openWorldHint: false,
    },
  };
}

let allTools: readonly McpTool[] | null = null;

/** Every tool, in table order (the table's tools are built once per process). */
export function mcpTools(commands: readonly CommandSpec[] = COMMANDS): readonly McpTool[] {
  if (commands === COMMANDS)
    return (allTools ??= Object.freeze(COMMANDS.filter((spec) => spec.notATool === undefined).map(toolOf)));
  return commands.filter((spec) => spec.notATool === undefined).map(toolOf);
}
