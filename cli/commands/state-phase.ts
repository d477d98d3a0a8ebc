// codelabgen state phase <next> [--approved]: one phase forward (docs/protocol.md, "Phases").
import { ARTIFACTS, commit, decidePhase, phaseFacts, writeReportFiles } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { approvalOf } from './lesson-change.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  const target = ctx.positionals[0] ?? '';
  const approved = ctx.flag('approved');
  const approval = approvalOf(ctx);
  const { event, state, notices } = await commit(course, { command: ctx.commandLine }, (state) => {
    const draft = decidePhase(state, target, approved, phaseFacts(course, state, target, approved));
    return draft.kind === 'phase.advance' && approved ? { ...draft, approval } : draft;
  });
  reportNotices(ctx, notices);
  if (event.kind !== 'phase.advance') return EXIT.ok;
  // The finished course's report tells everything up to this move (assembly asked for it before the site build).
  const report = event.to === 'done' ? await writeReportFiles(course, state.last_seq, ctx.commandLine) : null;
  if (ctx.flag('json'))
    ctx.out.json({
      seq: event.seq,
      from: event.from,
      to: event.to,
      approved: event.approved,
      ...(report && { report: [ARTIFACTS.reportMd, ARTIFACTS.reportJson] }),
    });
  else
    ctx.out.print(
      `phase ${event.from} → ${event.to} (seq ${event.seq})${report ? `; report refreshed: ${ARTIFACTS.reportMd}, ${ARTIFACTS.reportJson}` : ''}`,
    );
  return EXIT.ok;
}
