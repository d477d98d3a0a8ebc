// Generates docs/cli.md (every command's usage, options and examples) from the command table, and
// docs/conventions.md from pipeline/conventions.ts, so neither can drift from what the CLI does.
// `npm run docs`; cli/docs.test.ts and cli/conventions.test.ts fail on drift.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../cli/commands.ts';
import { commandHelp } from '../cli/help.ts';
import { renderConventionsDoc } from '../pipeline/conventions.ts';

export const CONVENTIONS_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'conventions.md');
export const CLI_DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'cli.md');

export function renderCliDoc(): string {
  const lines = [
    '# codelabgen command reference',
    '',
    '<!-- Generated from cli/commands.ts by `npm run docs` (scripts/gen-docs.ts); do not edit by hand. -->',
    '',
    'Exit codes: 0 done, 1 the check failed (`check`, `verify`), 2 refused (one `error: ...` line on stderr, then optional `hint: ...` lines; nothing changed), 3 internal error.',
    'The course is `--course DIR`, else `$CODELABGEN_COURSE`, else the nearest ancestor holding `.codelabgen/`. See [protocol.md](protocol.md) for the state protocol and the JSON shapes.',
    'Every command accepts `--course` (those that use no course ignore it). A group answers `--help` too (`codelabgen state --help`, `codelabgen help state`); a mistyped command or option gets a "did you mean" hint. Shell completion: `eval "$(codelabgen completion bash)"` (or `zsh`; `fish`: see [completion](#completion)).',
    '',
    '| command | what it does |',
    '|---|---|',
    ...COMMANDS.map((spec) => `| [\`${`${spec.name} ${spec.args ?? ''}`.trim()}\`](#${anchor(spec.name)}) | ${spec.summary.replace(/\|/g, '\\|')} |`),
    '',
  ];
  for (const spec of COMMANDS) lines.push(`## ${spec.name}`, '', '```text', commandHelp(spec), '```', '');
  return lines.join('\n');
}

function anchor(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CLI_DOC, renderCliDoc());
  writeFileSync(CONVENTIONS_DOC, renderConventionsDoc());
  process.stdout.write(`wrote ${path.relative(process.cwd(), CLI_DOC)} (${COMMANDS.length} commands)\n`);
}
