// codelabgen notify allow: this user's consent to run the course's `notify.command` on this machine
// (pipeline/progress/notify-consent.ts: a command from config.yaml runs with the user's rights).
import { allowCommand, escapeControl, loadConfig, refuse } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  const argv = loadConfig(course).notify?.command;
  if (argv === undefined)
    refuse(
      'notify allow: .codelabgen/config.yaml has no notify.command to allow (notify: { command: [PROGRAM, ARG...] })',
    );
  allowCommand(course.root, argv, ctx.env);
  if (ctx.flag('json')) ctx.out.json({ allowed: argv, course: course.root });
  else {
    ctx.out.print(`allowed notify.command ${escapeControl(JSON.stringify(argv))} for ${escapeControl(course.root)}`);
    ctx.out.print('it runs with your rights on each item that needs a person; a changed command needs allowing again');
  }
  return EXIT.ok;
}
