// The CLI's run: parse argv, dispatch from the command table, map errors to exit codes. The only
// place that sets the exit code. Command modules load lazily, so --help imports almost nothing.
// Two entries run it: cli/main.ts (every command) and cli/state-main.ts (the state commands'
// one-file bundle, docs/performance.md).
import { parseArgs } from 'node:util';
import { COMMANDS } from './commands.ts';
import { createContext, processInvocation } from './context.ts';
import { asInvoked } from './output.ts';
import { CodelabgenError, EXIT } from '../content-schemas/errors.ts';
import { acceptedOptionsOf, commandHelp, groupHelp, groupsOf, mainHelp, nextWords } from './help.ts';
import type { CommandModule, CommandSpec } from './spec.ts';
import { notifyAfter } from './notify.ts';
import { settle } from './settle.ts';
import { stderr, stdout } from './stdio.ts';
import { nearest } from './suggest.ts';

declare const CODELABGEN_VERSION: string | undefined;
const VERSION = typeof CODELABGEN_VERSION === 'string' ? CODELABGEN_VERSION : 'dev';

/** A command line that names no command or takes wrong options: refused, exit 2. */
class UsageError extends CodelabgenError {
  readonly exitCode = EXIT.refused;
}

/** `codelabgen --course D state show` means `codelabgen state show --course D`. */
export function hoistLeadingCourse(argv: string[]): string[] {
  const rest = [...argv];
  const moved: string[] = [];
  for (;;) {
    if (rest[0] === '--course' && rest.length >= 2) moved.push(...rest.splice(0, 2));
    else if (rest[0]?.startsWith('--course=')) moved.push(...rest.splice(0, 1));
    else return [...rest, ...moved];
  }
}

export function findCommand(argv: string[]): { spec: CommandSpec; rest: string[] } | null {
  let best: { spec: CommandSpec; rest: string[] } | null = null;
  for (const spec of COMMANDS) {
    const words = spec.name.split(' ');
    if (
      words.every((word, index) => argv[index] === word) &&
      (!best || words.length > best.spec.name.split(' ').length)
    ) {
      best = { spec, rest: argv.slice(words.length) };
    }
  }
  return best;
}

/** The leading command words of argv (up to the first option). */
function commandWords(argv: string[]): string[] {
  const end = argv.findIndex((arg) => arg.startsWith('-'));
  return end === -1 ? argv : argv.slice(0, end);
}

/** The longest leading run of `words` that names a group ("state task"), or "" for none. */
function groupPrefix(words: string[]): string {
  const groups = groupsOf(COMMANDS);
  for (let length = words.length; length > 0; length--) {
    const prefix = words.slice(0, length).join(' ');
    if (groups.has(prefix)) return prefix;
  }
  return '';
}

function unknownCommand(argv: string[]): never {
  const words = commandWords(argv);
  const group = groupPrefix(words);
  const depth = group === '' ? 0 : group.split(' ').length;
  const options = nextWords(COMMANDS, group);
  if (words.length === depth)
    throw new UsageError(`"${group}" needs a command: ${options.join(', ')} (see "codelabgen ${group} --help")`);
  const given = words.slice(0, depth + 1).join(' ');
  const guess = nearest(words[depth] ?? '', options);
  if (guess !== undefined) {
    const fixed = [...words.slice(0, depth), guess, ...words.slice(depth + 1)];
    const command = findCommand(fixed)?.spec.name ?? fixed.slice(0, depth + 1).join(' ');
    throw new UsageError(`unknown command "${given}"; did you mean "${command}"?`);
  }
  const hint = group !== '' ? `; "${group}" takes: ${options.join(', ')}` : '; run "codelabgen --help" for the list';
  throw new UsageError(`unknown command "${given}"${hint}`);
}

/** `help [words...]`: the main help, a group's help or a command's help. */
function helpFor(argv: string[]): string {
  const words = argv.filter((arg, index) => !arg.startsWith('-') && argv[index - 1] !== '--course');
  if (words.length === 0) return mainHelp(COMMANDS, VERSION);
  const found = findCommand(words);
  if (found && found.rest.length === 0) return commandHelp(found.spec, COMMANDS);
  if (groupsOf(COMMANDS).has(words.join(' '))) return groupHelp(COMMANDS, words.join(' '));
  return unknownCommand(words);
}

function wantsHelp(argv: string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

async function run(given: string[], load: (spec: CommandSpec) => Promise<CommandModule>): Promise<number> {
  const argv = hoistLeadingCourse(given);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    stdout.write(`${asInvoked(helpFor(argv.slice(1)), processInvocation())}\n`);
    return EXIT.ok;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const found = findCommand(argv);
  const group = commandWords(argv).join(' ');
  if (!found && wantsHelp(argv) && groupsOf(COMMANDS).has(group)) {
    stdout.write(`${asInvoked(groupHelp(COMMANDS, group), processInvocation())}\n`);
    return EXIT.ok;
  }
  const { spec, rest } = found ?? unknownCommand(argv);
  const options = acceptedOptionsOf(spec);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(
      `${spec.name}: ${parseArgsProblem(error)}${optionGuess(error, Object.keys(options))} (see "codelabgen ${spec.name} --help")`,
    );
  }
  if (parsed.values.help === true) {
    stdout.write(`${asInvoked(commandHelp(spec, COMMANDS), processInvocation())}\n`);
    return EXIT.ok;
  }
  const { min = 0, max = 0 } = spec.positionals ?? {};
  if (parsed.positionals.length < min || parsed.positionals.length > max) {
    throw new UsageError(
      `${spec.name}: expected ${spec.args ?? 'no arguments'}, got ` +
        `${parsed.positionals.length === 0 ? 'none' : `"${parsed.positionals.join(' ')}"`} (see "codelabgen ` +
        `${spec.name} --help")`,
    );
  }
  const module = await load(spec);
  const ctx = createContext(
    spec.name,
    argv,
    parsed.values as Record<string, string | boolean | string[] | undefined>,
    parsed.positionals,
  );
  const exitCode = (await module.run(ctx)) ?? EXIT.ok;
  await notifyAfter(spec, ctx);
  return exitCode;
}

/** node:util parseArgs' message, cut to its first sentence: "unknown option '--bogus'". */
function parseArgsProblem(error: unknown): string {
  const first = ((error as Error).message.split(/\.\s/)[0] ?? '').replace(/\.$/, '');
  return `${first.charAt(0).toLowerCase()}${first.slice(1)}`;
}

/** "; did you mean --out?" for an unknown long option close to a known one. */
function optionGuess(error: unknown, known: string[]): string {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return '';
  const given = /'--([^'=]+)/.exec((error as Error).message)?.[1];
  const guess = given === undefined ? undefined : nearest(given, known);
  return guess === undefined ? '' : `; did you mean --${guess}?`;
}

/**
 * Runs the command line of this process and sets its exit code. `shutdown` stops what the command
 * started and releases the locks it holds, on SIGINT or SIGTERM, before the process exits. `load`
 * loads the chosen command's module (cli/loaders.ts for dist/main.mjs, its own map in the state bundle).
 */
export async function main(
  shutdown: () => void | Promise<void>,
  load: (spec: CommandSpec) => Promise<CommandModule>,
): Promise<void> {
  const exitAfterShutdown = async (code: number): Promise<never> => {
    try {
      await shutdown();
    } finally {
      process.exit(code);
    }
  };
  process.on('SIGINT', () => void exitAfterShutdown(130));
  process.on('SIGTERM', () => void exitAfterShutdown(143));
  // The error's hints name commands as the user runs this CLI (cli/output.ts asInvoked).
  const invocation = processInvocation();
  const printed = { write: (text: string) => stderr.write(asInvoked(text, invocation)) };
  process.exitCode = await run(process.argv.slice(2), load).catch((error: unknown) => settle(error, printed));
}
