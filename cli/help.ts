// Help text, generated from the command table.
import { COMMON_OPTIONS, type CommandSpec, type OptionSpec } from './spec.ts';

/** The options a command's help lists (--course only where the command uses a course). */
export function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return spec.needsCourse === false
    ? { ...spec.options, help: COMMON_OPTIONS.help as OptionSpec }
    : { ...COMMON_OPTIONS, ...spec.options };
}

/** The options a command accepts: --course everywhere, so an agent may always pass it (ignored where unused). */
export function acceptedOptionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...COMMON_OPTIONS, ...spec.options };
}

/** Command groups: every proper prefix of a command name ("state", "state task", "site"). */
export function groupsOf(commands: readonly CommandSpec[]): Set<string> {
  const groups = new Set<string>();
  for (const spec of commands) {
    const words = spec.name.split(' ');
    for (let length = 1; length < words.length; length++) groups.add(words.slice(0, length).join(' '));
  }
  return groups;
}

/** The words that may follow `prefix` ("" for the first word), in table order. */
export function nextWords(commands: readonly CommandSpec[], prefix: string): string[] {
  const depth = prefix === '' ? 0 : prefix.split(' ').length;
  const words = commands
    .filter((spec) => prefix === '' || spec.name.startsWith(`${prefix} `))
    .map((spec) => spec.name.split(' ')[depth] ?? '');
  return [...new Set(words.filter(Boolean))];
}

function commandList(commands: readonly CommandSpec[], strip: number): string[] {
  const label = (spec: CommandSpec) => `${spec.name.split(' ').slice(strip).join(' ')} ${spec.args ?? ''}`.trimEnd();
  const width = Math.max(...commands.map((spec) => label(spec).length)) + 2;
  return commands.map((spec) => `  ${label(spec).padEnd(width)}${spec.summary}`);
}

export function groupHelp(commands: readonly CommandSpec[], group: string): string {
  const members = commands.filter((spec) => spec.name.startsWith(`${group} `));
  const example = members[0]?.name ?? group;
  return [
    `usage: codelabgen ${group} <command> [options]`,
    '',
    'commands:',
    ...commandList(members, group.split(' ').length),
    '',
    `Every command takes --help, e.g. codelabgen ${example} --help.`,
  ].join('\n');
}

export function usageLine(spec: CommandSpec): string {
  const options = Object.entries(spec.options ?? {}).map(
    ([name, option]) => `[--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}]`,
  );
  return ['codelabgen', spec.name, spec.args ?? '', ...options].filter(Boolean).join(' ');
}

/** A command's help; given the table, it also lists the commands under it ("verify merge" under "verify"). */
export function commandHelp(spec: CommandSpec, commands: readonly CommandSpec[] = []): string {
  const lines = [
    `usage: ${usageLine(spec)}`,
    '',
    spec.description ?? `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`,
    '',
    'options:',
  ];
  for (const [name, option] of Object.entries(optionsOf(spec))) {
    const flag = `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`;
    lines.push(`  ${flag.padEnd(26)} ${option.help}`);
  }
  if (spec.changesState) lines.push('', 'Changes state: takes the course lock and records an event.');
  if (spec.examples?.length) lines.push('', 'examples:', ...spec.examples.map((example) => `  ${example}`));
  const members = commands.filter((member) => member.name.startsWith(`${spec.name} `));
  if (members.length > 0) lines.push('', `commands under "${spec.name}":`, ...commandList(members, 0));
  return lines.join('\n');
}

export function mainHelp(commands: readonly CommandSpec[], version: string): string {
  return [
    `codelabgen ${version}: course state protocol, lesson verification and course sites`,
    '',
    'usage: codelabgen <command> [options]',
    '',
    'commands:',
    ...commandList(commands, 0),
    '',
    'Every command takes --help; so does a group (codelabgen state --help, codelabgen help state). Exit ' +
      'codes: 0 done, 1 check failed, 2 refused (error: ... on stderr), 3 internal error.',
    'The course is --course DIR, else $CODELABGEN_COURSE, else the nearest ancestor with .codelabgen/.',
    'Every command accepts --course (those that use no course ignore it).',
  ].join('\n');
}
