// codelabgen brief <role> [LESSON] [--phase P] [--json]: the brief a worker is started with (the same
// text as the MCP prompt of the role, there in tool terms). Read-only.
import { buildBrief, readBriefFacts } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { readRecoveredState } from './plan-input.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const { course, state } = await readRecoveredState(ctx);
  const [role = '', lesson] = ctx.positionals;
  const facts = await readBriefFacts(course, state, { role, lesson, phase: ctx.string('phase') }, ctx.env);
  const brief = buildBrief(facts, course.root);
  if (ctx.flag('json')) ctx.out.json(brief);
  else ctx.out.print(brief.text);
  return EXIT.ok;
}
