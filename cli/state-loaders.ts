// The state commands' loaders: the commands dist/state.cjs runs (cli/state-main.ts), without the rest
// of the CLI. cli/loaders.ts, the loaders of every command, takes these in.
import type { CommandModule } from './spec.ts';

export const STATE_LOADERS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  'state show': () => import('./commands/state-show.ts'),
  'state next': () => import('./commands/state-next.ts'),
  'state log': () => import('./commands/state-log.ts'),
  'state set': () => import('./commands/state-set.ts'),
  'state fail': () => import('./commands/state-fail.ts'),
  'state block': () => import('./commands/state-block.ts'),
  'state unblock': () => import('./commands/state-unblock.ts'),
  'state stale': () => import('./commands/state-stale.ts'),
  'state phase': () => import('./commands/state-phase.ts'),
  'state task start': () => import('./commands/state-task.ts'),
  'state task heartbeat': () => import('./commands/state-task.ts'),
  'state task done': () => import('./commands/state-task.ts'),
  'state task fail': () => import('./commands/state-task.ts'),
  'state task reset': () => import('./commands/state-task.ts'),
  'state task list': () => import('./commands/state-task.ts'),
};
