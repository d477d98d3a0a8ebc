// How each command's code is loaded: lazily, so that only the chosen command's module (and its heavy
// dependencies) is imported. Kept apart from the command table (cli/commands.ts), which is data read
// by help, completion and the MCP server. The `mcp` command's own loader is in cli/main.ts: the MCP
// server runs commands through this map, which therefore cannot import the server.
import type { CommandModule } from './spec.ts';

export const LOADERS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  'init': () => import('./commands/init.ts'),
  'state show': () => import('./commands/state-show.ts'),
  'state log': () => import('./commands/state-log.ts'),
  'state rebuild': () => import('./commands/state-rebuild.ts'),
  'state phase': () => import('./commands/state-phase.ts'),
  'state set': () => import('./commands/state-set.ts'),
  'state rework': () => import('./commands/state-rework.ts'),
  'state fail': () => import('./commands/state-fail.ts'),
  'state block': () => import('./commands/state-block.ts'),
  'state unblock': () => import('./commands/state-unblock.ts'),
  'state stale': () => import('./commands/state-stale.ts'),
  'state stages': () => import('./commands/state-stages.ts'),
  'state watch': () => import('./commands/state-watch.ts'),
  'state next': () => import('./commands/state-next.ts'),
  'state task start': () => import('./commands/state-task.ts'),
  'state task heartbeat': () => import('./commands/state-task.ts'),
  'state task done': () => import('./commands/state-task.ts'),
  'state task fail': () => import('./commands/state-task.ts'),
  'state task reset': () => import('./commands/state-task.ts'),
  'state task list': () => import('./commands/state-task.ts'),
  'status check': () => import('./commands/status-check.ts'),
  'register': () => import('./commands/register.ts'),
  'new module': () => import('./commands/new.ts'),
  'new lesson': () => import('./commands/new.ts'),
  'report': () => import('./commands/report.ts'),
  'verify': () => import('./commands/verify.ts'),
  'verify merge': () => import('./commands/verify.ts'),
  'schema list': () => import('./commands/schema.ts'),
  'schema show': () => import('./commands/schema.ts'),
  'conventions': () => import('./commands/conventions.ts'),
  'check': () => import('./commands/check.ts'),
  'site build': () => import('./commands/site.ts'),
  'site dev': () => import('./commands/site.ts'),
  'site preview': () => import('./commands/site.ts'),
  'completion': () => import('./commands/completion.ts'),
};

/** The module of the command named `name` (from the command table). */
export function loadCommand(name: string): Promise<CommandModule> {
  const load = LOADERS[name];
  if (load === undefined) throw new Error(`no loader for the command ${name}: add it to cli/loaders.ts`);
  return load();
}
