// The one-command demo: copies the example course's artifacts into a fresh course directory and
// drives the whole protocol through the real CLI as an orchestrator would, then builds the site.
// Usage: node scripts/demo.ts [--example examples/node-streams] [--dir demo-course] [--out demo-site] [--base /]
// [--jobs 3] (at most this many of the lessons `state next` hands out, one a module, are worked on at
// once, as parallel workers would). It never writes into examples/.
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { nextSteps } from './demo-next-steps.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(REPO, 'bin', 'codelabgen.cjs');

const { values } = parseArgs({
  options: {
    example: { type: 'string', default: 'examples/node-streams' },
    dir: { type: 'string', default: 'demo-course' },
    out: { type: 'string', default: 'demo-site' },
    base: { type: 'string', default: '/' },
    quiet: { type: 'boolean', default: false },
    jobs: { type: 'string', default: '3' },
  },
});
const jobs = Math.max(1, Number.parseInt(values.jobs, 10) || 1);

const example = path.resolve(REPO, values.example);
const course = path.resolve(REPO, values.dir);
const out = path.resolve(REPO, values.out);
const started = Date.now();

function say(text: string): void {
  if (!values.quiet) process.stdout.write(`${text}\n`);
}

/** Runs codelabgen against the demo course; any non-zero exit stops the demo with its stderr. */
function cl(...args: string[]): string {
  const result = spawnSync(process.execPath, [CLI, ...args, '--course', course], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.status !== 0) {
    process.stderr.write(
      `demo: "codelabgen ${args.join(' ')}" exited ${result.status}\n${result.stderr}${result.stdout}`,
    );
    process.exit(1);
  }
  return result.stdout;
}

/** The same as cl() without blocking, so several lessons' workers can run at once (the store locks). */
function clAsync(...args: string[]): Promise<string> {
  return exec([...args, '--course', course]);
}

function exec(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          process.stderr.write(`demo: "codelabgen ${args.join(' ')}" exited ${error.code}\n${stderr}${stdout}`);
          process.exit(1);
        }
        resolve(stdout);
      },
    );
  });
}

function copy(relative: string): void {
  const from = path.join(example, relative);
  if (!existsSync(from)) throw new Error(`the example has no ${relative}`);
  cpSync(from, path.join(course, relative), { recursive: true });
}

function phase(next: string, approved = false): void {
  cl('state', 'phase', next, ...(approved ? ['--approved'] : []));
  say(`  phase → ${next}`);
}

/** Token prices of the demo's model, US dollars per million tokens: input, output, cache read, cache write. */
const PRICE = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

/**
 * A plausible usage for a worker's run, the same on every demo run (a hash of the lesson and role
 * picks each figure in its range), so the report and the board show a cost section.
 */
function demoUsage(lesson: string, role: string) {
  let seed = 2166136261;
  for (const c of `${lesson}/${role}`) seed = Math.imul(seed ^ c.charCodeAt(0), 16777619) >>> 0;
  const pick = (low: number, high: number) => {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) >>> 0;
    return low + (seed % (high - low + 1));
  };
  const usage = {
    model: 'claude-sonnet-4',
    input_tokens: pick(1_500, 6_000),
    output_tokens: pick(800, 4_000),
    cache_read_tokens: pick(20_000, 60_000),
    cache_write_tokens: pick(2_000, 8_000),
    seconds: pick(40, 200),
  };
  const cost =
    (usage.input_tokens * PRICE.input +
      usage.output_tokens * PRICE.output +
      usage.cache_read_tokens * PRICE.cache_read +
      usage.cache_write_tokens * PRICE.cache_write) /
    1e6;
  return { ...usage, cost_usd: Math.round(cost * 10_000) / 10_000 };
}

/** A worker's step: start a task, do the work (copy its artifacts), finish the task with its status. */
async function work(lesson: string, role: string, stage: string, artifacts: string[]): Promise<void> {
  const task = (await clAsync('state', 'task', 'start', lesson, '--role', role)).trim();
  artifacts.forEach(copy);
  const status = JSON.stringify({
    lesson,
    status: 'ok',
    stage,
    artifacts: artifacts.filter((a) => !a.endsWith('/')),
    usage: demoUsage(lesson, role),
  });
  const file = path.join(course, '.codelabgen', `.demo-status-${task}.json`);
  writeFileSync(file, `Worker summary: done.\n\n\`\`\`json\n${status}\n\`\`\`\n`);
  await exec(['status', 'check', file]);
  await clAsync('state', 'task', 'done', task, '--result', file);
  rmSync(file);
}

interface Curriculum {
  modules: Array<{ id: string; slug: string; lessons: Array<{ id: string; slug: string; title: string }> }>;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(example, '.codelabgen', 'curriculum.yaml')))
    throw new Error(`${example} is not an example course`);
  rmSync(course, { recursive: true, force: true });
  mkdirSync(course, { recursive: true });
  const curriculum = load(readFileSync(path.join(example, '.codelabgen', 'curriculum.yaml'), 'utf8')) as Curriculum & {
    title: string;
  };
  say(`codelabgen demo: ${curriculum.title}`);
  say(`  course → ${path.relative(process.cwd(), course) || '.'}`);
  spawnOrDie(['init', course, '--title', curriculum.title, '--topic', 'example course driven by the demo']);
  copy('.codelabgen/config.yaml');
  if (existsSync(path.join(example, 'assets'))) copy('assets'); // the site's logo (config.yaml site.logo)

  phase('recon');
  copy('.codelabgen/research');
  phase('sources');
  copy('.codelabgen/sources.jsonl');
  copy('.codelabgen/sources');
  cl('state', 'log', 'sources-reviewed', '--data', 'by=demo', '--data', 'note=all candidates read');
  phase('gate_sources');
  phase('topics', true);
  copy('.codelabgen/topics');
  phase('curriculum');
  copy('.codelabgen/curriculum.yaml');
  copy('.codelabgen/plan.md');
  phase('gate_plan');
  phase('scaffold', true);
  cl('register');
  say(
    `  registered ${curriculum.modules.reduce((n, m) => n + m.lessons.length, 0)} lessons in ${curriculum.modules.length} modules`,
  );
  phase('lessons');

  await runLessonsAsPlanned(curriculum);
  copy('.codelabgen/glossary.jsonl');

  phase('assembly');
  cl('report');
  say('  report → .codelabgen/report.md');
  say('  building the site...');
  buildSiteShowingProgress();
  phase('done');
  cl('check');
  for (const line of nextSteps(course, out, (Date.now() - started) / 1000)) say(line);
}

/** `site build` with stderr on the terminal, so its progress line shows while pages render. */
function buildSiteShowingProgress(): void {
  const args = ['site', 'build', '--out', out, '--base', values.base, '--course', course];
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', values.quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.status !== 0) {
    process.stderr.write(
      `demo: "codelabgen ${args.join(' ')}" exited ${result.status}\n${result.stderr ?? ''}${result.stdout}`,
    );
    process.exit(1);
  }
}

/**
 * As an orchestrator does: ask `state next` for the work items (the first unfinished lesson of each
 * module, modules in parallel up to the budget), work them at once, and ask again until none is left.
 */
async function runLessonsAsPlanned(curriculum: Curriculum): Promise<void> {
  const lessons = new Map(
    curriculum.modules.flatMap((m) =>
      m.lessons.map((lesson) => [lesson.id, { moduleDir: `${m.id}-${m.slug}`, lesson }] as const),
    ),
  );
  for (;;) {
    const next = JSON.parse(await clAsync('state', 'next')) as {
      lessons: Array<{ lesson: string }>;
      blocked: unknown[];
    };
    if (next.lessons.length === 0) break;
    await Promise.all(
      next.lessons.slice(0, jobs).map(({ lesson }) => {
        const item = lessons.get(lesson);
        if (!item) throw new Error(`state next names lesson ${lesson}, which the curriculum does not have`);
        return runLesson(item.moduleDir, item.lesson);
      }),
    );
  }
}

async function runLesson(moduleDir: string, lesson: { id: string; slug: string; title: string }): Promise<void> {
  const begun = Date.now();
  const dir = `${moduleDir}/${lesson.id}-${lesson.slug}`;
  const meta = `.codelabgen/lessons/${lesson.id}`;
  await work(lesson.id, 'example-designer', 'spec', [`${meta}/spec.yaml`]);
  await clAsync('state', 'set', lesson.id, 'spec');
  const code = codeEntries(dir);
  await work(lesson.id, 'code-author', 'code', code);
  await clAsync('state', 'set', lesson.id, 'code');
  await clAsync('verify', lesson.id, '--update-state');
  const docs = [
    `${dir}/docs/readalong.md`,
    ...(existsSync(path.join(example, dir, 'docs', 'img')) ? [`${dir}/docs/img`] : []),
  ]; // and its images
  await work(lesson.id, 'readalong-writer', 'readalong', docs);
  await clAsync('state', 'set', lesson.id, 'readalong');
  const notes = [
    `${dir}/docs/notes.md`,
    ...(existsSync(path.join(example, dir, 'docs', 'diagrams')) ? [`${dir}/docs/diagrams`] : []),
  ];
  await work(lesson.id, 'notes-writer', 'notes', notes);
  await clAsync('state', 'set', lesson.id, 'notes');
  await work(lesson.id, 'lesson-reviewer', 'reviewed', [`${meta}/review.md`]);
  await clAsync('state', 'set', lesson.id, 'reviewed');
  await clAsync('state', 'set', lesson.id, 'done');
  say(`  lesson ${lesson.id} ${lesson.title}: verified, done (${((Date.now() - begun) / 1000).toFixed(1)} s)`);
}

/** The lesson folder's code entries (everything but docs/), as course-relative paths. */
function codeEntries(dir: string): string[] {
  return readdirSync(path.join(example, dir))
    .filter((name) => name !== 'docs' && name !== 'node_modules')
    .map((name) => `${dir}/${name}`);
}

function spawnOrDie(args: string[]): void {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.status !== 0) {
    process.stderr.write(`demo: "codelabgen ${args.join(' ')}" exited ${result.status}\n${result.stderr}`);
    process.exit(1);
  }
}

await main();
