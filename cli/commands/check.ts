// codelabgen check: every course check; exit 1 when any finds a problem (warnings keep exit 0).
import { ChecksFailedError, checkCourse, escapeControl } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const report = await checkCourse(courseOf(ctx), ctx.commandLine);
  reportNotices(ctx, report.notices);
  if (ctx.flag('json')) ctx.out.json(report);
  else {
    for (const section of report.checks) {
      const warnings = section.warnings ?? [];
      const mark =
        section.problems.length > 0
          ? ctx.out.paint('red', 'FAIL')
          : warnings.length > 0
            ? ctx.out.paint('yellow', 'warn')
            : ctx.out.paint('green', 'ok  ');
      ctx.out.print(`${mark} ${section.name}${section.detail ? ` (${section.detail})` : ''}`);
      for (const problem of section.problems) printItem(ctx, '', problem);
      for (const warning of warnings) printItem(ctx, 'warning: ', warning);
    }
  }
  if (!report.ok)
    throw new ChecksFailedError(`check found ${report.problems} problem${report.problems === 1 ? '' : 's'}`, {
      quiet: ctx.flag('json'),
    });
  return EXIT.ok;
}

/** One problem or warning; a message of several lines (mermaid's, with its caret) keeps them, indented under it. */
function printItem(ctx: Context, label: string, text: string): void {
  const [first = '', ...rest] = text.split('\n').map(escapeControl);
  ctx.out.print(`     - ${label}${first}`);
  for (const line of rest) ctx.out.print(`       ${line}`);
}
