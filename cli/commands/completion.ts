// codelabgen completion bash|zsh|fish: prints the completion script generated from the command table.
import { refuse } from '../../pipeline/index.ts';
import { COMMANDS } from '../commands.ts';
import { completionScript, SHELLS, type Shell } from '../completion.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const shell = ctx.positionals[0] ?? '';
  if (!(SHELLS as readonly string[]).includes(shell))
    refuse(`completion: unknown shell "${shell}"; expected one of ${SHELLS.join(', ')}`);
  ctx.out.print(completionScript(shell as Shell, COMMANDS).trimEnd());
  return EXIT.ok;
}
