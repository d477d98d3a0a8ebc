// The CLI entry for every command (dist/main.mjs). The state commands' own entry is
// cli/state-main.ts; bin/codelabgen.cjs picks one of them.
import { loadCommand } from './loaders.ts';
import { main } from './run.ts';

await main(
  async () => {
    const { releaseHeldLocks, stopRunningTests } = await import('../pipeline/index.ts');
    stopRunningTests();
    releaseHeldLocks();
  },
  (spec) => (spec.name === 'mcp' ? import('./commands/mcp.ts') : loadCommand(spec.name)),
);
