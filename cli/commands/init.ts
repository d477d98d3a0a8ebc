// codelabgen init [DIR] --title T [--topic X] [--runtime R] [--example]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_RUNTIME, RUNTIMES } from '../../content-schemas/registries.ts';
import {
  DEFAULT_CONFIG_YAML,
  templateFile,
  abs,
  type AddedLesson,
  type CourseWrite,
  planCurriculumEntry,
  ARTIFACTS,
  courseAt,
  createCourse,
  dependenciesOutsideRepository,
  loadConfig,
  nextPhase,
  outsideDependencyFix,
  outsideDependencyProblem,
  phaseActions,
  planNext,
  printable,
  refuse,
  requireTemplate,
} from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

const WORKFLOW = '.github/workflows/course-site.yml';
const GITIGNORE = `# codelabgen: commit .codelabgen/ but these machine-local files
.codelabgen/lock
.codelabgen/state.json.written
.codelabgen/notified/
.codelabgen/notify.log
.codelabgen/*.tmp
node_modules/
site-out/
.astro/
`;

export async function run(ctx: Context): Promise<ExitCode> {
  const title = ctx.string('title')?.trim();
  if (!title) refuse('init: --title is required', 'codelabgen init DIR --title "Course title"');
  if (title.length > 200) refuse(`init: --title is ${title.length} characters; the limit is 200`);
  const topic = ctx.string('topic')?.trim() || null;
  const runtime = ctx.string('runtime');
  if (runtime !== undefined && !(RUNTIMES as readonly string[]).includes(runtime))
    refuse(`init: --runtime ${runtime} is not one of ${RUNTIMES.join(', ')}`);
  const example = ctx.flag('example');
  const ci = ctx.string('ci');
  if (ci !== undefined && ci !== 'github')
    refuse(`init: --ci ${ci} is not known; the one CI there is a workflow for is github (GitHub Actions and Pages)`);
  const root = path.resolve(ctx.cwd, ctx.positionals[0] ?? ctx.string('course') ?? '.'); // --course: accepted as DIR
  const existing = existingRuntime(root);
  if (runtime !== undefined && existing !== null && existing !== runtime)
    refuse(
      `init: ${ARTIFACTS.config} already says runtime: ${existing}; --runtime ${runtime} disagrees`,
      `drop --runtime, or edit ${ARTIFACTS.config} first`,
    );
  if (example) requireTemplate(runtime ?? existing ?? DEFAULT_RUNTIME, 'init --example');
  const workflow = path.join(root, WORKFLOW);
  // The workflow installs the course's package.json in a fresh clone: what it points to must be in it.
  const outside = ci === undefined ? [] : dependenciesOutsideRepository(root);
  if (outside.length > 0)
    refuse(`init --ci github: ${outsideDependencyProblem(outside[0]!, ctx.cwd)}`, outsideDependencyFix(outside[0]!));
  if (ci !== undefined && existsSync(workflow))
    refuse(
      `init --ci github: ${path.relative(ctx.cwd, workflow) || workflow} already exists`,
      'remove it first to write the current one',
    );

  // Everything init writes is one change (pipeline/store/staged-change.ts): config.yaml, .gitignore,
  // the workflow, and with --example the sample lesson and its lessons.register event after
  // course.init. A refusal (the sample lesson's folder exists) or a full disk leaves nothing behind.
  const writes: CourseWrite[] = [];
  // A config init writes is the default; another runtime than the default replaces that line only, and a
  // hand-written course (--example) publishes its lessons once their tests pass.
  if ((runtime !== undefined || example) && existing === null) {
    let text = DEFAULT_CONFIG_YAML.replace(new RegExp(`^runtime: ${DEFAULT_RUNTIME}( *)`, 'm'), (_, pad: string) =>
      `runtime: ${runtime ?? DEFAULT_RUNTIME}`.padEnd(`runtime: ${DEFAULT_RUNTIME}${pad}`.length),
    );
    if (example)
      text += 'site:\n  publish: verified       # done | verified | all: which lessons `site build` publishes\n';
    writes.push({ path: ARTIFACTS.config, data: text });
  }
  // What a repository of the course commits: .codelabgen/ holds the course's state and history;
  // only the lock and the state file's identity record are machine-local.
  const wroteGitignore = !existsSync(path.join(root, '.gitignore'));
  if (wroteGitignore) writes.push({ path: '.gitignore', data: GITIGNORE });
  if (ci !== undefined)
    writes.push({ path: WORKFLOW, data: readFileSync(templateFile('ci/github-pages.yml'), 'utf8') });
  let added = null as Omit<AddedLesson, 'seq'> | null; // set by the plan inside the change
  const sample = { kind: 'module', title: 'First steps', lessonTitle: 'A first lesson' } as const;
  const { course, state } = await createCourse(root, {
    title,
    topic,
    command: ctx.commandLine,
    writes,
    then: example
      ? (initial) => {
          const planned = planCurriculumEntry(
            courseAt(root),
            initial,
            sample,
            runtime ?? existing ?? DEFAULT_RUNTIME,
            'init --example',
          );
          added = planned.added;
          return planned;
        }
      : undefined,
  });
  const where = path.relative(ctx.cwd, course.root) || '.';
  if (ctx.flag('json')) {
    ctx.out.json({
      course: course.root,
      phase: state.phase,
      title: state.title,
      ...(added && {
        example: { lesson: added.lesson.id, dir: added.lesson.dir, runtime: added.runtime, files: added.files },
      }),
    });
    return 0;
  }
  ctx.out.print(`Created course "${printable(state.title, 300)}" in ${course.root}`);
  if (wroteGitignore)
    ctx.out.print(
      'wrote .gitignore: commit .codelabgen/ (config, curriculum, state, events, lesson specs, verify runs); ' +
        'its lock, state.json.written and notification records stay local',
    );
  if (ci !== undefined)
    ctx.out.print(
      `wrote ${WORKFLOW}: verifies every lesson and deploys the site to GitHub Pages on a push to main (set Pages' source to GitHub Actions)`,
    );
  if (added) {
    ctx.out.print(
      `added sample lesson ${added.lesson.id} "${added.lesson.title}" in ${added.lesson.dir}/ (runtime ${added.runtime}): code, test, readalong, notes, spec`,
    );
    ctx.out.print(`preview: ${where === '.' ? '' : `cd ${where} && `}codelabgen site dev`);
    // A hand-written course publishes the lessons whose tests pass (site.publish: verified): no protocol phases.
    if (existing === null) {
      ctx.out.print(
        `publish: ${where === '.' ? '' : `cd ${where} && `}codelabgen verify --all && codelabgen site build --out ../site-out`,
      );
      return EXIT.ok;
    }
  }
  // The same line `state next` gives in phase init (its next_step), with the course to pass.
  const next = planNext({
    state,
    budgets: loadConfig(course).budgets,
    actions: phaseActions(course, state),
    drifted: new Set(),
    next_phase: nextPhase(state.phase),
    now: new Date(),
  });
  ctx.out.print(`next: ${next.next_step} --course ${shellWord(course.root)}`);
  return EXIT.ok;
}

/** The runtime of a config.yaml already in DIR (createCourse keeps it), or null when there is none. */
function existingRuntime(root: string): string | null {
  const course = courseAt(root);
  return existsSync(abs(course, ARTIFACTS.config)) ? loadConfig(course).runtime : null;
}

/** A path as one shell word: as it is when it has only safe characters, else in single quotes. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
