// codelabgen schema list | schema show <name>
import { SCHEMA_ENTRIES, SCHEMA_NAMES, findSchemaEntry, toJsonSchema } from '../../content-schemas/index.ts';
import { printable, refuse } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  if (ctx.command === 'schema list') {
    if (ctx.flag('json')) ctx.out.json(SCHEMA_ENTRIES.map(({ name, file }) => ({ name, file })));
    else for (const { name, file } of SCHEMA_ENTRIES) ctx.out.print(`${name.padEnd(16)}${file}`);
    return EXIT.ok;
  }
  const name = ctx.positionals[0] ?? '';
  const entry =
    findSchemaEntry(name) ?? refuse(`unknown schema "${printable(name)}"; one of: ${SCHEMA_NAMES.join(', ')}`);
  ctx.out.json(toJsonSchema(entry));
  return EXIT.ok;
}
