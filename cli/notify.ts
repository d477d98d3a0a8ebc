// After a command that may have made the course need a human: the notifications config.yaml asks
// for (pipeline/progress/notify.ts), each item once. Runs after the command's commit, outside its
// lock; a receiver that fails or never answers is a warning, never the command's failure.
import { escapeControl, notifyHumans } from '../pipeline/state-commands.ts';
import type { Context } from './context.ts';
import { courseOf } from './course.ts';
import type { CommandSpec } from './spec.ts';

/** Commands that change no state themselves but may find a lease run out or a lesson blocked by verify. */
const ALSO_AFTER = new Set(['verify', 'state next']);

export async function notifyAfter(spec: CommandSpec, ctx: Context): Promise<void> {
  if (!spec.changesState && !ALSO_AFTER.has(spec.name)) return;
  let failures: string[];
  try {
    failures = await notifyHumans(courseOf(ctx));
  } catch {
    return; // no course here (a refused init, a bad --course): nothing to tell
  }
  for (const line of failures) ctx.out.warn(`warning: ${escapeControl(line)}`);
}
