// How each command's code is loaded: lazily, so that only the chosen command's module (and its heavy
// dependencies) is imported. Kept apart from the command table (cli/commands.ts), which is data read
// by help, completion and the MCP server. The `mcp` command's own loader is in cli/main.ts: the MCP
// server runs commands through this map, which therefore cannot import the server.
import type { CommandModule } from './spec.ts';
import { STATE_LOADERS } from './state-loaders.ts';

export const LOADERS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  ...STATE_LOADERS,
  init: () => import('./commands/init.ts'),
  'state rebuild': () => import('./commands/state-rebuild.ts'),
  'state rework': () => import('./commands/state-rework.ts'),
  'state stages': () => import('./commands/state-stages.ts'),
  'state watch': () => import('./commands/state-watch.ts'),
  'status check': () => import('./commands/status-check.ts'),
  register: () => import('./commands/register.ts'),
  'new module': () => import('./commands/new.ts'),
  'new lesson': () => import('./commands/new.ts'),
  report: () => import('./commands/report.ts'),
  verify: () => import('./commands/verify.ts'),
  'verify merge': () => import('./commands/verify.ts'),
  'schema list': () => import('./commands/schema.ts'),
  'schema show': () => import('./commands/schema.ts'),
  conventions: () => import('./commands/conventions.ts'),
  brief: () => import('./commands/brief.ts'),
  check: () => import('./commands/check.ts'),
  'notify allow': () => import('./commands/notify-allow.ts'),
  'site build': () => import('./commands/site.ts'),
  'site dev': () => import('./commands/site.ts'),
  'site preview': () => import('./commands/site.ts'),
  completion: () => import('./commands/completion.ts'),
};

/** The module of the command named `name` (from the command table). */
export function loadCommand(name: string): Promise<CommandModule> {
  const load = LOADERS[name];
  if (load === undefined) throw new Error(`no loader for the command ${name}: add it to cli/loaders.ts`);
  return load();
}
