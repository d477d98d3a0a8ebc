// codelabgen conventions [topic]: the doc conventions with examples (the text of docs/conventions.md).
import { CONVENTION_TOPICS, printable, refuse, renderConventions, type ConventionTopic } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const topic = ctx.positionals[0];
  if (topic !== undefined && !(CONVENTION_TOPICS as readonly string[]).includes(topic))
    refuse(`conventions: unknown topic "${printable(topic)}"; topics: ${CONVENTION_TOPICS.join(', ')}`);
  ctx.out.print(renderConventions(topic as ConventionTopic | undefined).trimEnd());
  return EXIT.ok;
}
