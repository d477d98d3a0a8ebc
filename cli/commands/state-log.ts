// codelabgen state log <kind> [--lesson ID] --data key=value ...
import { commit, getOwn, printable, refuse } from '../../pipeline/state-commands.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT } from '../exit-codes.ts';

const KIND = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
export const MAX_VALUE_CHARS = 64 * 1024;

export function parseDataPairs(pairs: readonly string[]): Record<string, string> {
  const data: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) refuse(`--data "${printable(pair)}": expected key=value`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!KEY.test(key)) refuse(`--data key "${printable(key)}": use letters, digits, "_", "." or "-" (at most 64)`);
    // A "__proto__" key would vanish in schema validation (an acknowledged fact silently lost).
    if (key === '__proto__') refuse('--data key "__proto__" is reserved; choose another key');
    if (value.length > MAX_VALUE_CHARS) refuse(`--data ${key}: value is ${value.length} characters; the limit is ${MAX_VALUE_CHARS}`);
    if (Object.hasOwn(data, key)) refuse(`--data ${key}: given twice`);
    Object.defineProperty(data, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return data;
}

export async function run(ctx: Context): Promise<number> {
  const kind = ctx.positionals[0] ?? '';
  if (!KIND.test(kind)) refuse(`state log: kind "${printable(kind)}" must be letters, digits, ".", "_" or "-" (at most 64), e.g. source-unreachable`);
  const data = parseDataPairs(ctx.list('data'));
  const lesson = ctx.string('lesson') ?? null;
  const course = courseOf(ctx);
  const { event, notices } = await commit(course, { command: ctx.commandLine }, (state) => {
    if (lesson !== null && getOwn(state.lessons, lesson) === undefined) refuse(`unknown lesson "${printable(lesson)}"`, 'list lessons with: codelabgen state show --all');
    return { kind: 'log', fact: kind, lesson, data };
  });
  reportNotices(ctx, notices);
  if (ctx.flag('json')) ctx.out.json({ seq: event.seq, kind: event.kind, fact: kind });
  else ctx.out.print(`logged ${kind} (seq ${event.seq})`);
  return EXIT.ok;
}
