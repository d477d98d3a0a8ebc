// Help text, generated from the command table.
import { COMMON_OPTIONS, type CommandSpec, type OptionSpec } from './spec.ts';

export function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return spec.needsCourse === false ? { ...spec.options, help: COMMON_OPTIONS.help as OptionSpec } : { ...COMMON_OPTIONS, ...spec.options };
}

export function usageLine(spec: CommandSpec): string {
  const options = Object.entries(spec.options ?? {}).map(([name, option]) => `[--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}]`);
  return ['codelabgen', spec.name, spec.args ?? '', ...options].filter(Boolean).join(' ');
}

export function commandHelp(spec: CommandSpec): string {
  const lines = [`usage: ${usageLine(spec)}`, '', spec.description ?? `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`, '', 'options:'];
  for (const [name, option] of Object.entries(optionsOf(spec))) {
    const flag = `${option.short ? `-${option.short}, ` : ''}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`;
    lines.push(`  ${flag.padEnd(26)} ${option.help}`);
  }
  if (spec.changesState) lines.push('', 'Changes state: takes the course lock and records an event.');
  if (spec.examples?.length) lines.push('', 'examples:', ...spec.examples.map((example) => `  ${example}`));
  return lines.join('\n');
}

export function mainHelp(commands: readonly CommandSpec[], version: string): string {
  const width = Math.max(...commands.map((spec) => `${spec.name} ${spec.args ?? ''}`.length)) + 2;
  return [
    `codelabgen ${version}: course state protocol, lesson verification and course sites`,
    '',
    'usage: codelabgen <command> [options]',
    '',
    'commands:',
    ...commands.map((spec) => `  ${`${spec.name} ${spec.args ?? ''}`.trimEnd().padEnd(width)}${spec.summary}`),
    '',
    'Every command takes --help. Exit codes: 0 done, 1 check failed, 2 refused (error: ... on stderr), 3 internal error.',
    'The course is --course DIR, else $CODELABGEN_COURSE, else the nearest ancestor with .codelabgen/.',
  ].join('\n');
}
