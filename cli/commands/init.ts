// codelabgen init [DIR] --title T [--topic X]
import path from 'node:path';
import { createCourse, loadConfig, nextPhase, phaseActions, planNext, refuse } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const title = ctx.string('title')?.trim();
  if (!title) refuse('init: --title is required', 'codelabgen init DIR --title "Course title"');
  if (title.length > 200) refuse(`init: --title is ${title.length} characters; the limit is 200`);
  const topic = ctx.string('topic')?.trim() || null;
  const root = path.resolve(ctx.cwd, ctx.positionals[0] ?? ctx.string('course') ?? '.'); // --course: accepted as DIR
  const { course, state } = await createCourse(root, { title, topic, command: ctx.commandLine });
  if (ctx.flag('json')) ctx.out.json({ course: course.root, phase: state.phase, title: state.title });
  else {
    ctx.out.print(`Created course "${state.title}" in ${course.root}`);
    // The same line `state next` gives in phase init (its next_step), with the course to pass.
    const next = planNext({ state, budgets: loadConfig(course).budgets, actions: phaseActions(course, state), drifted: new Set(), next_phase: nextPhase(state.phase), now: new Date() });
    ctx.out.print(`next: ${next.next_step} --course ${path.relative(ctx.cwd, course.root) || '.'}`);
  }
  return EXIT.ok;
}
