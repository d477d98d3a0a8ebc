// The state commands' loaders: the commands dist/state.cjs runs (cli/state-main.ts), without the rest
// of the CLI, from their entries in the registry (cli/commands-state.ts). cli/loaders.ts, the loaders
// of every command, takes these in.
import { STATE_COMMANDS } from './commands-state.ts';
import type { CommandModule } from './spec.ts';

export const STATE_LOADERS: Readonly<Record<string, () => Promise<CommandModule>>> = Object.fromEntries(
  STATE_COMMANDS.flatMap((spec) => (spec.load === undefined ? [] : [[spec.name, spec.load]])),
);
