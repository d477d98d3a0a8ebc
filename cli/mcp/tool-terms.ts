// Command lines in tool terms: `codelabgen state phase topics --approved` in a hint, next step or
// description becomes the tool call an MCP client makes (`state_phase {"next":"topics","approved":true}`).
import { NOT_ARGUMENTS } from './tool-params.ts';
import type { McpTool } from './tool-types.ts';
import { mcpTools } from './tools.ts';

/** A tool call: what `next_call` holds and what inToolTerms writes for a command line. */
export interface ToolCall {
  tool: string;
  arguments: Record<string, string | boolean>;
}

const TOKEN = /^(?:"[^"]*"|[^\s"]+)/;

const SORTED = new WeakMap<readonly McpTool[], readonly McpTool[]>();
/** The tools, longest command name first (so `state task start` wins over `state`), sorted once per list. */
function longestNameFirst(tools: readonly McpTool[]): readonly McpTool[] {
  let sorted = SORTED.get(tools);
  if (sorted === undefined)
    SORTED.set(tools, (sorted = [...tools].sort((a, b) => b.command.name.length - a.command.name.length)));
  return sorted;
}

/**
 * The command line at the start of `text` ("state phase topics --approved, then ...") as a tool call,
 * and how many characters it took; null when it names no tool.
 */
export function commandAsCall(
  text: string,
  tools: readonly McpTool[] = mcpTools(),
): { call: ToolCall; length: number } | null {
  const tokens: Array<{ text: string; end: number }> = [];
  for (let at = 0; at < text.length; ) {
    const match = TOKEN.exec(text.slice(at));
    if (!match) break;
    tokens.push({ text: match[0], end: at + match[0].length });
    at += match[0].length;
    if (text[at] !== ' ' || text[at + 1] === ' ') break; // a command ends at two spaces or the end of its line
    at += 1;
  }
  const tool = longestNameFirst(tools).find((candidate) => {
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
