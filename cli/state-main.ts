// The state commands' entry (state show|next|log|set|fail|block|unblock|stale|phase and state task
// start|heartbeat|done|fail|reset|list): scripts/build.mjs
// bundles it, with all those commands run, into the one file dist/state.cjs, which
// bin/codelabgen.cjs loads for them instead of dist/main.mjs and its chunks (docs/performance.md).
// runStateCommand() leaves any other command line to the launcher, which then loads dist/main.mjs.
import { releaseHeldLocks } from '../pipeline/state-commands.ts';
import { findCommand, hoistLeadingCourse, main } from './run.ts';
import type { CommandModule } from './spec.ts';

const STATE_COMMANDS: Record<string, () => Promise<CommandModule>> = {
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

/**
 * Runs this process's command line when it names one of the commands above and returns true;
 * returns false, having done nothing, for any other (the launcher then loads dist/main.mjs).
 */
export function runStateCommand(): boolean {
  const name = findCommand(hoistLeadingCourse(process.argv.slice(2)))?.spec.name;
  if (name === undefined || !Object.hasOwn(STATE_COMMANDS, name)) return false;
  void main(releaseHeldLocks, (spec) => STATE_COMMANDS[spec.name]!());
  return true;
}
