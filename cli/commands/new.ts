// codelabgen new module "<title>" | new lesson <module-id> "<title>": a curriculum entry, registered,
// with its lesson folder and spec from the course runtime's template.
import path from 'node:path';
import { addCurriculumEntry, printable, type NewEntry } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { courseOf } from '../course.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  const slug = ctx.string('slug');
  const entry: NewEntry =
    ctx.command === 'new module'
      ? { kind: 'module', title: ctx.positionals[0] ?? '', slug, lessonTitle: ctx.string('lesson') ?? 'Introduction' }
      : { kind: 'lesson', moduleId: ctx.positionals[0] ?? '', title: ctx.positionals[1] ?? '', slug };
  const added = await addCurriculumEntry(course, entry, ctx.commandLine);
  const { lesson } = added;
  if (ctx.flag('json')) {
    ctx.out.json({
      seq: added.seq,
      module: { id: lesson.module_id, slug: lesson.module_slug, title: lesson.module_title },
      lesson: { id: lesson.id, slug: lesson.slug, title: lesson.title, dir: lesson.dir },
      runtime: added.runtime,
      files: added.files,
    });
    return EXIT.ok;
  }
  const namedHint =
    ctx.string('lesson') === undefined ? ' (a module starts with one; name it with --lesson "Title")' : '';
  if (entry.kind === 'module')
    ctx.out.print(
      `added module ${lesson.module_id} "${printable(lesson.module_title, 300)}" to curriculum.yaml, with its first lesson${namedHint}:`,
    );
  ctx.out.print(
    `added lesson ${lesson.id} "${printable(lesson.title, 300)}" (pending, seq ${added.seq}) in ${lesson.dir}/ from the ${added.runtime} template`,
  );
  const where = path.relative(ctx.cwd, course.root);
  ctx.out.print(
    `next: edit its files, then codelabgen verify ${lesson.id}${where === '' ? '' : ` --course ${where}`}; preview: codelabgen site dev`,
  );
  return EXIT.ok;
}
