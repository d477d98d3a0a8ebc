// codelabgen state watch [--json]: the live board in the terminal. A terminal gets the compact
// board redrawn on each change; a pipe or file gets one line per change (--json: one board per
// line). Follows events.jsonl with the offset-based tail; reads only, until Ctrl-C.
import { boardLine, boardScreen, followProgress, type Board } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  const json = ctx.flag('json');
  const screen = ctx.out.outIsTTY && !json;
  let cleared = false;
  const show = (board: Board) => {
    if (json) return ctx.out.jsonText(`${JSON.stringify(board)}\n`);
    if (!screen) return ctx.out.print(boardLine(board));
    // The screen cleared once; then home, each line over the old one (through the output's filter).
    ctx.out.screen(
      boardScreen(board, ctx.out.outColumns(), (style, text) => ctx.out.paint(style, text)),
      !cleared,
    );
    cleared = true;
  };
  const source = followProgress(course, { onBoard: show });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    ctx.signal?.addEventListener('abort', () => resolve());
  });
  source.close();
  return EXIT.ok;
}
