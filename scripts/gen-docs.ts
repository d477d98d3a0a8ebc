// Generates docs/cli.md (every command's usage, options and examples) and the tool list of
// docs/mcp.md from the command table, the launcher's list of the commands dist/state.cjs runs from the
// state commands' registry, docs/conventions.md from pipeline/authoring/conventions.ts, and the runtime
// table of docs/verify.md from content-schemas/runtimes.ts, so none can drift from what the CLI does.
// `npm run docs`; cli/docs.test.ts and cli/conventions.test.ts fail on drift.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../cli/commands.ts';
import { STATE_COMMANDS } from '../cli/commands-state.ts';
import { commandHelp } from '../cli/help.ts';
import { mcpTools, NOT_TOOLS, type McpTool } from '../cli/mcp/tools.ts';
import { RUNTIME_REGISTRY } from '../content-schemas/registries.ts';
import { renderConventionsDoc } from '../pipeline/authoring/conventions.ts';

export const CONVENTIONS_DOC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'docs',
  'conventions.md',
);
export const CLI_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'cli.md');
export const LAUNCHER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'codelabgen.cjs');
export const MCP_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'mcp.md');
const MCP_START =
  '<!-- tools: generated from cli/commands.ts by `npm run docs` (scripts/gen-docs.ts); do not edit by hand -->';
const MCP_END = '<!-- end of tools -->';
export const VERIFY_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'verify.md');
const RUNTIMES_START =
  '<!-- runtimes: generated from content-schemas/runtimes.ts by `npm run docs` (scripts/gen-docs.ts); do not edit by hand -->';
const RUNTIMES_END = '<!-- end of runtimes -->';

export function renderCliDoc(): string {
  const lines = [
    '# codelabgen command reference',
    '',
    '<!-- Generated from cli/commands.ts by `npm run docs` (scripts/gen-docs.ts); do not edit by hand. -->',
    '',
    'Exit codes: 0 done, 1 the check failed (`check`, `verify`), 2 refused (one `error: ...` line on stderr, ' +
      'then optional `hint: ...` lines; nothing changed), 3 internal error.',
    'The course is `--course DIR`, else `$CODELABGEN_COURSE`, else the nearest ancestor holding ' +
      '`.codelabgen/`. See [protocol.md](protocol.md) for the state protocol and the JSON shapes.',
    'Every command accepts `--course` (those that use no course ignore it). A group answers `--help` too ' +
      '(`codelabgen state --help`, `codelabgen help state`); a mistyped command or option gets a "did you mean" ' +
      'hint. Shell completion: `eval "$(codelabgen completion bash)"` (or `zsh`; `fish`: see ' +
      '[completion](#completion)).',
    '',
    '| command | what it does |',
    '|---|---|',
    ...COMMANDS.map(
      (spec) =>
        `| [\`${`${spec.name} ${spec.args ?? ''}`.trim()}\`](#${anchor(spec.name)}) | ${spec.summary.replace(/\|/g, '\\|')} |`,
    ),
    '',
  ];
  for (const spec of COMMANDS) lines.push(`## ${spec.name}`, '', '```text', commandHelp(spec), '```', '');
  return lines.join('\n');
}

function toolArguments(tool: McpTool): string {
  const names = tool.params.map((param) => (param.schema.isOptional() ? `\`${param.name}\`` : `\`${param.name}\`*`));
  return names.length === 0 ? '-' : names.join(', ');
}

function toolHints(tool: McpTool): string {
  const { readOnlyHint, destructiveHint } = tool.annotations;
  return readOnlyHint ? 'read-only' : destructiveHint ? 'writes, destructive' : 'writes, additive';
}

/** The tool list and the commands that are no tools, between the markers of docs/mcp.md. */
export function renderMcpToolList(): string {
  return [
    MCP_START,
    '',
    '| tool | command | arguments (* required) | hints |',
    '|---|---|---|---|',
    ...mcpTools().map(
      (tool) =>
        `| \`${tool.name}\` | [\`${tool.command.name}\`](cli.md#${anchor(tool.command.name)}) | ${toolArguments(tool)} | ${toolHints(tool)} |`,
    ),
    '',
    'Commands that are no tools:',
    '',
    '| command | why |',
    '|---|---|',
    ...Object.entries(NOT_TOOLS).map(([name, why]) => `| [\`${name}\`](cli.md#${anchor(name)}) | ${why} |`),
    '',
    MCP_END,
  ].join('\n');
}

/** docs/mcp.md with its tool list regenerated (the rest is written by hand). */
export function renderMcpDoc(current: string): string {
  const start = current.indexOf(MCP_START);
  const end = current.indexOf(MCP_END);
  if (start === -1 || end < start) throw new Error(`${MCP_DOC} has lost its tool-list markers`);
  return `${current.slice(0, start)}${renderMcpToolList()}${current.slice(end + MCP_END.length)}`;
}

/** The runtime table of docs/verify.md, one row per entry of the registry. */
export function renderRuntimeTable(): string {
  return [
    RUNTIMES_START,
    '| runtime | command | before it | working folder | lesson template |',
    '|---|---|---|---|---|',
    ...RUNTIME_REGISTRY.map((entry) =>
      [
        `\`${entry.name}\``,
        entry.testCommand ?? '`test_command` (required)',
        entry.install ?? '—',
        entry.workingFolder,
        entry.template === null ? '—' : `\`templates/${entry.template}/\``,
      ]
        .map((cell) => cell.replace(/\|/g, '\\|'))
        .join(' | ')
        .replace(/^/, '| ')
        .concat(' |'),
    ),
    RUNTIMES_END,
  ].join('\n');
}

/** docs/verify.md with its runtime table regenerated (the rest is written by hand). */
export function renderVerifyDoc(current: string): string {
  const start = current.indexOf(RUNTIMES_START);
  const end = current.indexOf(RUNTIMES_END);
  if (start === -1 || end < start) throw new Error(`${VERIFY_DOC} has lost its runtime-table markers`);
  return `${current.slice(0, start)}${renderRuntimeTable()}${current.slice(end + RUNTIMES_END.length)}`;
}

/** The launcher's generated list of the commands dist/state.cjs runs. */
export const LAUNCHER_LIST = /^( *)const STATE_BUNDLE_COMMANDS = \[\n[^\]]*\];$/m;

/** bin/codelabgen.cjs with its list of the commands dist/state.cjs runs regenerated from their registry. */
export function renderLauncher(current: string): string {
  const found = LAUNCHER_LIST.exec(current);
  if (found === null) throw new Error(`${LAUNCHER} has lost its STATE_BUNDLE_COMMANDS list`);
  const indent = found[1]!;
  const names = STATE_COMMANDS.flatMap((spec) => (spec.load === undefined ? [] : [`${indent}  '${spec.name}',\n`]));
  const list = `${indent}const STATE_BUNDLE_COMMANDS = [\n${names.join('')}${indent}];`;
  return current.replace(LAUNCHER_LIST, () => list);
}

function anchor(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CLI_DOC, renderCliDoc());
  writeFileSync(CONVENTIONS_DOC, renderConventionsDoc());
  writeFileSync(MCP_DOC, renderMcpDoc(readFileSync(MCP_DOC, 'utf8')));
  writeFileSync(VERIFY_DOC, renderVerifyDoc(readFileSync(VERIFY_DOC, 'utf8')));
  writeFileSync(LAUNCHER, renderLauncher(readFileSync(LAUNCHER, 'utf8')));
  process.stdout.write(`wrote ${path.relative(process.cwd(), CLI_DOC)} (${COMMANDS.length} commands)\n`);
}
