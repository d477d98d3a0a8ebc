// The state commands' entry (those with a `load` in their registry, cli/commands-state.ts):
// scripts/build.mjs bundles it, with all those commands run, into the one file dist/state.cjs, which
// bin/codelabgen.cjs loads for them instead of dist/main.mjs and its chunks (docs/performance.md).
// runStateCommand() leaves any other command line to the launcher, which then loads dist/main.mjs.
import { releaseHeldLocks } from '../pipeline/state-commands.ts';
import { findCommand, hoistLeadingCourse, main } from './run.ts';
import { STATE_LOADERS } from './state-loaders.ts';

/**
 * Runs this process's command line when it names one of the commands above and returns true;
 * returns false, having done nothing, for any other (the launcher then loads dist/main.mjs).
 */
export function runStateCommand(): boolean {
  const name = findCommand(hoistLeadingCourse(process.argv.slice(2)))?.spec.name;
  if (name === undefined || !Object.hasOwn(STATE_LOADERS, name)) return false;
  void main(releaseHeldLocks, (spec) => STATE_LOADERS[spec.name]!());
  return true;
}
