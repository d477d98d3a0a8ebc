// `state watch` in text: the compact board a terminal redraws (stages × counts, running and
// interrupted tasks, what needs a human, the last events), and the one line per change printed when
// stdout is not a terminal. Pure: colour comes in as a `paint` function (identity without colour).
import { escapeControl } from '../course/course.ts';
import { clockText, formatDuration } from '../report/text.ts';
import type { Board } from './board.ts';

export type Paint = (style: 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan', text: string) => string;

const noPaint: Paint = (_style, text) => text;
/** Course text on one line: every control character escaped (a newline in a block reason forges no line). */
const one = escapeControl;
const ago = (seconds: number) => formatDuration(seconds * 1000);

/** `pending 3 · spec 0 · ... · done 2`. */
export function stageCounts(board: Board): string {
  return board.columns.map((col) => `${col.stage} ${col.cards.length}`).join(' · ');
}

function pace(board: Board): string {
  const t = board.throughput;
  const rate = t.done_per_hour === null ? 'no lesson done yet' : `${t.done_per_hour.toFixed(1)} done/h`;
  const eta = t.stalled ? ', stalled' : t.eta_seconds === null ? '' : `, about ${ago(t.eta_seconds)} left`;
  const cost = board.cost.spent.tasks_with_usage > 0 ? `, $${board.cost.spent.cost_usd.toFixed(2)} spent` : '';
  return `${rate}, ${t.stages_done}/${t.stages_total} stages done${eta}${cost}`;
}

/** One line per change (stdout is not a terminal). */
export function boardLine(board: Board): string {
  const l = board.lessons;
  const flags = [
    l.blocked ? `blocked ${l.blocked}` : '',
    l.stale ? `stale ${l.stale}` : '',
    l.drifted ? `drifted ${l.drifted}` : '',
  ].filter(Boolean);
  const tasks = `running ${board.running.length}${board.interrupted.length > 0 ? `, interrupted ${board.interrupted.map((t) => t.id).join(' ')}` : ''}`;
  const human =
    board.needs_human.length > 0
      ? ` | needs a human: ${board.needs_human.map((item) => one(item.command)).join('; ')}`
      : '';
  const last = board.feed[0];
  return (
    `${clockText(board.now)} seq ${board.seq} ${board.phase}: ${stageCounts(board)}` +
    `${flags.length > 0 ? ` (${flags.join(', ')})` : ''} | ${tasks}${human}` +
    `${last ? ` | last: ${last.lesson ? `${last.lesson} ` : ''}${one(last.text)}` : ''}`
  );
}

/** The board a terminal redraws, `width` columns wide. */
export function boardScreen(board: Board, width: number, paint: Paint = noPaint): string[] {
  const cut = (text: string) => (text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text);
  const l = board.lessons;
  const lines = [
    paint('bold', cut(`${one(board.title)} — phase ${board.phase}, seq ${board.seq}`)),
    cut(`${l.done}/${l.total} lessons done; ${pace(board)}`),
    '',
  ];
  const widest = Math.max(...board.columns.map((col) => col.stage.length));
  const most = Math.max(1, ...board.columns.map((col) => col.cards.length));
  const barRoom = Math.max(0, Math.min(40, width - widest - 8));
  for (const col of board.columns) {
    const bar = '█'.repeat(Math.round((col.cards.length / most) * barRoom));
    lines.push(
      `${col.stage.padEnd(widest)} ${String(col.cards.length).padStart(4)} ${paint(col.stage === 'done' ? 'green' : 'cyan', bar)}`,
    );
  }
  const flags = [
    l.blocked ? paint('red', `blocked ${l.blocked}`) : '',
    l.stale ? paint('yellow', `stale ${l.stale}`) : '',
    l.drifted ? paint('yellow', `drifted ${l.drifted}`) : '',
  ].filter(Boolean);
  if (flags.length > 0) lines.push(flags.join('  '));
  lines.push('', paint('bold', `needs a human (${board.needs_human.length})`));
  for (const item of board.needs_human)
    lines.push(cut(`  ${one(item.text)}`), paint('dim', cut(`    ${one(item.command)}`)));
  lines.push('', paint('bold', `running (${board.running.length})`));
  for (const t of board.running)
    lines.push(
      cut(
        `  ${t.id} ${t.lesson ?? `phase ${t.phase}`} ${t.role}, ${ago(t.age_seconds)} old, lease ` +
          `${t.lease_seconds === null ? 'none' : `${ago(t.lease_seconds)} left`}`,
      ),
    );
  if (board.interrupted.length > 0) {
    lines.push('', paint('yellow', `interrupted (${board.interrupted.length})`));
    for (const t of board.interrupted)
      lines.push(
        cut(
          `  ${t.id} ${t.lesson ?? `phase ${t.phase}`} ${t.role}: resume (codelabgen state task done|fail ` +
            `${t.id}) or reset (codelabgen state task reset ${t.id})`,
        ),
      );
  }
  lines.push('', paint('bold', 'last events'));
  for (const line of board.feed.slice(0, 5))
    lines.push(cut(`  ${clockText(line.at).slice(11)} ${line.lesson ? `${line.lesson} ` : ''}${one(line.text)}`));
  return lines;
}
