// What a command receives: parsed options and positionals, the environment and output streams.
// Commands print through it and never call process.exit. It imports nothing from pipeline/, so
// `--help` stays cheap; cli/course.ts resolves the course.
import { createOutput, type Output } from './output.ts';
import { stderr, stdout } from './stdio.ts';

export interface Context {
  command: string;
  /** The whole command line, recorded in events and the lock. */
  commandLine: string;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: Output;
  string(name: string): string | undefined;
  flag(name: string): boolean;
  list(name: string): string[];
}

export function createContext(command: string, argv: string[], values: Context['values'], positionals: string[]): Context {
  const ctx: Context = {
    command,
    commandLine: ['codelabgen', ...argv].join(' ').slice(0, 500),
    values,
    positionals,
    cwd: process.cwd(),
    env: process.env,
    out: createOutput(stdout, stderr, process.env),
    string: (name) => {
      const value = values[name];
      return typeof value === 'string' ? value : undefined;
    },
    flag: (name) => values[name] === true,
    list: (name) => {
      const value = values[name];
      return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    },
  };
  return ctx;
}
