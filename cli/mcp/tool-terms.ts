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

/** A quoted value as the CLI writes one (JSON.stringify's, pipeline/course/course.ts printable): `\"` and `\\` inside. */
const QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"`;
const TOKEN = new RegExp(String.raw`^(?:${QUOTED}|[^\s"]+)`);

/** A token's value: a quoted one as the string it quotes (`"a\"b"` → `a"b`), a bare one as it is. */
function unquoted(token: string): string {
  if (!/^".*"$/s.test(token)) return token;
  try {
    return String(JSON.parse(token));
  } catch {
    return token.slice(1, -1);
  }
}
/** Punctuation a sentence puts after a word. */
const TRAILING = /[,;.:)`]+$/;

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
  // The last word of a command may carry the sentence's punctuation: "(run: codelabgen register)".
  const tool = longestNameFirst(tools).find((candidate) => {
    const words = candidate.command.name.split(' ');
    return words.every((word, index) =>
      index === words.length - 1 ? tokens[index]?.text.replace(TRAILING, '') === word : tokens[index]?.text === word,
    );
  });
  if (!tool) return null;
  // init's DIR is the tool's `course`.
  const positionals = tool.params.filter(
    (param) => param.to.kind === 'positional' || (tool.name === 'init' && param.to.kind === 'course'),
  );
  const args: Record<string, string | boolean> = {};
  let used = tool.command.name.split(' ').length;
  const last = tokens[used - 1]!;
  const lastTrailing = TRAILING.exec(last.text)?.[0] ?? '';
  let end = last.end - lastTrailing.length;
  let positional = 0;
  while (lastTrailing === '' && used < tokens.length) {
    const token = tokens[used]!.text;
    const trailing = TRAILING.exec(token)?.[0] ?? '';
    const bare = unquoted(token.slice(0, token.length - trailing.length));
    if (bare.startsWith('--')) {
      const option = bare.slice(2);
      const param = tool.params.find((candidate) => candidate.to.kind === 'option' && candidate.to.option === option);
      if (option === 'json' || option === 'help' || NOT_ARGUMENTS[tool.command.name]?.includes(option)) {
        // implied, or meaningless over MCP
      } else if (!param || param.to.kind !== 'option') break;
      else if (param.to.spec.type === 'boolean') args[param.name] = true;
      else {
        const value = tokens[used + 1];
        // An option at the end with no value names what to give: `state task start --phase`.
        if (!value) {
          args[param.name] = `<${param.name}>`;
          end = tokens[used]!.end - trailing.length;
          break;
        }
        used += 1;
        args[param.name] = unquoted(value.text.replace(/[,;.:)]+$/, ''));
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

/** A command of the command table with its positionals and options (`state next`'s next_command) as a tool call. */
export function plannedCall(
  planned: { command: string; positionals: string[]; options: Record<string, string | true> },
  tools: readonly McpTool[] = mcpTools(),
): ToolCall {
  const tool = tools.find((candidate) => candidate.command.name === planned.command);
  if (!tool) throw new Error(`next_command names "${planned.command}", which is no tool`);
  const positionals = tool.params.filter((param) => param.to.kind === 'positional');
  const args: ToolCall['arguments'] = {};
  planned.positionals.forEach((value, index) => {
    args[positionals[index]!.name] = value;
  });
  for (const [option, value] of Object.entries(planned.options)) {
    const param = tool.params.find((candidate) => candidate.to.kind === 'option' && candidate.to.option === option);
    if (!param) throw new Error(`next_command gives --${option}, which ${tool.name} does not take`);
    args[param.name] = value;
  }
  return { tool: tool.name, arguments: args };
}

/** A tool call as prose: `state_phase {"next":"topics","approved":true}`. */
export function callText(call: ToolCall): string {
  return `${call.tool} ${JSON.stringify(call.arguments)}`;
}

/**
 * `text` in tool terms (hints, refusals, next steps, descriptions): every `codelabgen <command>` as the
 * tool call an MCP client makes, and every option left in prose (`give --role R`) as its argument.
 */
export function inToolTerms(text: string, tools: readonly McpTool[] = mcpTools()): string {
  return optionsAsArguments(commandsAsCalls(text, tools), tools);
}

const ARGUMENTS = new WeakMap<readonly McpTool[], ReadonlyMap<string, { name: string; flag: boolean }>>();
/** Every option of the tools by its CLI name: its argument's name, and whether it is a flag (a boolean). */
function argumentsByOption(tools: readonly McpTool[]): ReadonlyMap<string, { name: string; flag: boolean }> {
  let found = ARGUMENTS.get(tools);
  if (found === undefined) {
    const map = new Map<string, { name: string; flag: boolean }>([['course', { name: 'course', flag: false }]]);
    for (const param of tools.flatMap((tool) => tool.params)) {
      if (param.to.kind === 'option')
        map.set(param.to.option, { name: param.name, flag: param.to.spec.type === 'boolean' });
      if (param.to.kind === 'document' && param.to.option !== null)
        map.set(param.to.option, { name: param.name, flag: false });
    }
    ARGUMENTS.set(tools, (found = map));
  }
  return found;
}

/** `--name VALUE` in prose: the option, an optional backtick around it, and the word after it. */
const OPTION_IN_PROSE = new RegExp(
  String.raw`(?<![\w-])(\`?)--([a-z][a-z-]*)((?:=|[ ])(?:${QUOTED}|[^\s"\`]+))?(\`?)`,
  'g',
);
/** A value that only names what to give: `R`, `DIR`, `FILE|-`, `<stage>`, `...`. */
const PLACEHOLDER = /^(?:[A-Z][A-Z0-9_|-]*|<[^>]+>|\.\.\.|"\.\.\.")$/;

/** Options in prose as arguments: `--approved` → `approved: true`, `--role R` → `role`, `--phase recon:` → `phase: "recon"`:. */
function optionsAsArguments(text: string, tools: readonly McpTool[]): string {
  const byOption = argumentsByOption(tools);
  return text.replace(
    OPTION_IN_PROSE,
    (whole: string, open: string, option: string, valuePart: string | undefined, close: string, at: number) => {
      const argument = byOption.get(option);
      if (argument === undefined) return whole;
      const given = valuePart ?? '';
      const quoted = open === '`' || close === '`';
      const wrap = (inner: string, rest = '') => (quoted ? `${open}${inner}${rest}${close}` : `\`${inner}\`${rest}`);
      if (argument.flag) return wrap(`${argument.name}: true`, given);
      const raw = given.slice(1);
      const trailing = raw.startsWith('"') ? '' : (TRAILING.exec(raw)?.[0] ?? '');
      const value = raw.slice(0, raw.length - trailing.length);
      if (value === '' || value.startsWith('-')) return wrap(argument.name, given);
      if (PLACEHOLDER.test(value)) return `${wrap(argument.name)}${trailing}`;
      // A bare word is the option's value only where a clause ends after it ("--phase recon:", "--role researcher)");
      // else it is the sentence going on ("--title is 201 characters").
      const clauseEnds = trailing !== '' || at + whole.length === text.length || text[at + whole.length] === '\n';
      if (!/^["\d/.~]/.test(value) && !clauseEnds) return wrap(argument.name, given);
      const shown = value.startsWith('"') || /^\d+$/.test(value) ? value : JSON.stringify(value);
      return `${wrap(`${argument.name}: ${shown}`)}${trailing}`;
    },
  );
}

/** A command quoted in backticks without `codelabgen` (`state unblock --review-round`) as the tool call. */
function quotedCommandsAsCalls(text: string, tools: readonly McpTool[]): string {
  return text.replace(/`([a-z][^`\n]*)`/g, (whole, quoted: string) => {
    const found = commandAsCall(quoted, tools);
    return found !== null && found.length === quoted.length ? `\`${callText(found.call)}\`` : whole;
  });
}

/** `text` with every `codelabgen <command>` (and every command quoted in backticks) written as the tool call. */
function commandsAsCalls(text: string, tools: readonly McpTool[]): string {
  return quotedCommandsAsCalls(prefixedCommandsAsCalls(text, tools), tools);
}

/** `text` with every `codelabgen <command>` written as the tool call. */
function prefixedCommandsAsCalls(text: string, tools: readonly McpTool[]): string {
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
