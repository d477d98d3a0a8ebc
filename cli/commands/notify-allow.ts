// codelabgen notify allow: this user's consent to the course's notify receivers on this machine
// (pipeline/progress/notify-consent.ts: a command from config.yaml runs with the user's rights, a URL
// has codelabgen post from here to where the course says).
import { allowReceivers, commandRisk, escapeControl, loadConfig, type Receiver, refuse } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  const notify = loadConfig(course).notify;
  const argv = notify?.command;
  const url = notify?.url;
  if (argv === undefined && url === undefined)
    refuse(
      'notify allow: .codelabgen/config.yaml has no notify.command or notify.url to allow ' +
        '(notify: { command: [PROGRAM, ARG...] } or notify: { url: https://... })',
    );
  const risk = argv === undefined ? null : commandRisk(course.root, argv);
  if (risk !== null) refuse(`notify allow: ${escapeControl(risk)} (.codelabgen/config.yaml)`);
  const receivers: Receiver[] = [...(argv ? [{ command: argv }] : []), ...(url ? [{ url }] : [])];
  allowReceivers(course.root, receivers, ctx.env);
  if (ctx.flag('json')) ctx.out.json({ allowed: argv ?? null, url: url ?? null, course: course.root });
  else {
    if (argv)
      ctx.out.print(`allowed notify.command ${escapeControl(JSON.stringify(argv))} for ${escapeControl(course.root)}`);
    if (url) ctx.out.print(`allowed notify.url ${escapeControl(url)} for ${escapeControl(course.root)}`);
    ctx.out.print(
      argv
        ? 'the command runs with your rights on each item that needs a person; a changed command or URL needs allowing again'
        : 'a changed URL needs allowing again',
    );
  }
  return EXIT.ok;
}
