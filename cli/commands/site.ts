// `codelabgen site build|dev|preview`: the course site. Astro, mermaid and pagefind load only here
// (dynamic import of pipeline/site/index.ts, whose modules import them lazily in turn).
import path from 'node:path';
import { escapeControl, isInside, loadConfig, RefusalError, SITE_OUT_DIR, type Course } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { appendStepSummary, inGitHubActions, markdownCell, markdownTable } from '../github-actions.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  // `site preview --out DIR` serves a built folder: it needs a course only to find its default --out.
  const course = ctx.command === 'site preview' && ctx.string('out') !== undefined ? courseOrNull(ctx) : courseOf(ctx);
  if (ctx.command === 'site build') return build(ctx, course!);
  const site = await import('../../pipeline/site/index.ts');
  const mode = ctx.command === 'site dev' ? 'dev' : 'preview';
  let out = path.join(ctx.cwd, 'dist-site');
  if (mode === 'preview') {
    const outArg = ctx.string('out') ?? path.relative(ctx.cwd, defaultOut(ctx, course!));
    out = path.resolve(ctx.cwd, outArg);
    if (course !== null) out = site.checkOut(course.root, out);
    if (!site.isSiteBuild(out))
      throw new RefusalError(`--out ${outArg} is not a codelabgen site build`, [
        `build it first: codelabgen site build --out ${outArg}`,
      ]);
  }
  // A preview serves the build at the base it was built with (its marker says), unless told otherwise.
  const base = ctx.string('base') ?? (mode === 'preview' ? site.builtBase(out) : null) ?? '/';
  const server = await site.serveSite(mode, {
    root: course?.root ?? out,
    out,
    base,
    port: portOf(ctx),
    host: ctx.string('host'),
    open: ctx.flag('open'),
    env: ctx.env,
  });
  return waitForInterrupt(server);
}

/** The course, or null when none is found (a refusal of another kind still refuses). */
function courseOrNull(ctx: Context): Course | null {
  try {
    return courseOf(ctx);
  } catch (error) {
    if (error instanceof RefusalError && error.message.startsWith('no course found')) return null;
    throw error;
  }
}

/** ./site-out, or the course's own site-out/ when run inside the course (docs/site.md "Commands"). */
function defaultOut(ctx: Context, course: Course): string {
  return path.join(isInside(ctx.cwd, course.root) ? course.root : ctx.cwd, SITE_OUT_DIR);
}

function portOf(ctx: Context): number | undefined {
  const port = ctx.string('port');
  if (port === undefined) return undefined;
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
    throw new RefusalError(`--port ${port}: expected a port number 1-65535`);
  return Number(port);
}

/** Serves until interrupted; a server that stops by itself fails with its `error:` line. */
async function waitForInterrupt(server: { stop(): Promise<void>; done: Promise<void> }): Promise<ExitCode> {
  await Promise.race([
    server.done,
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    }),
  ]);
  await server.stop();
  return EXIT.ok;
}

async function build(ctx: Context, course: Course): Promise<ExitCode> {
  const { buildSite, SHALLOW_CLONE_HINT, SHALLOW_CLONE_WARNING } = await import('../../pipeline/site/index.ts');
  const drafts = ctx.flag('drafts');
  const json = ctx.flag('json');
  // CODELABGEN_PROGRESS=lines: the MCP server runs the build as a child and reads these lines (cli/mcp/invoke.ts).
  const lines = ctx.env.CODELABGEN_PROGRESS === 'lines';
  const progress = (step: string, detail: string) => {
    if (lines) return ctx.out.warn(`site build: ${step}: ${detail}`);
    if (json) return;
    if (ctx.out.live) ctx.out.status(`site build: ${step}: ${escapeControl(detail)}`);
    else ctx.out.warn(`site build: ${step}: ${escapeControl(detail)}`);
  };
  const result = await buildSite({
    root: course.root,
    out: ctx.string('out') === undefined ? defaultOut(ctx, course) : path.resolve(ctx.cwd, ctx.string('out')!),
    base: ctx.string('base') ?? '/',
    site: ctx.string('site'),
    drafts,
    stats: ctx.flag('stats'),
    strictDiagrams: ctx.flag('strict-diagrams'),
    command: ctx.commandLine,
    env: ctx.env,
    progress,
  }).finally(() => ctx.out.clearStatus());
  const recorded = result.recorded;
  if (inGitHubActions(ctx.env)) appendStepSummary(ctx.env, buildSummary(result, drafts));
  if (json) {
    ctx.out.json({ ...result, drafts, recorded });
    return EXIT.ok;
  }
  // mermaid's parse errors point at the line on the lines after the first: kept as lines, indented.
  for (const problem of result.diagramErrors) {
    const [first = '', ...rest] = problem.split(/\r?\n/);
    ctx.out.warn(`warning: ${escapeControl(first)} (shown as an error box)`);
    for (const line of rest) if (line.trim() !== '') ctx.out.warn(`  ${escapeControl(line)}`);
  }
  if (result.browserDiagrams !== null) ctx.out.warn(`warning: ${result.browserDiagrams}`);
  if (result.shallowClone) {
    ctx.out.warn(`warning: ${SHALLOW_CLONE_WARNING}`);
    ctx.out.warn(`hint: ${SHALLOW_CLONE_HINT}`);
  }
  if (!drafts && result.excluded.length > 0) {
    ctx.out.warn(
      `warning: ${result.excluded.length} lesson${result.excluded.length === 1 ? '' : 's'} left out (` +
        `${loadConfig(course).site.publish === 'verified' ? 'tests not passed' : 'not done'}): ` +
        `${result.excluded.map((l) => `${l.id} (${l.stage})`).join(', ')}`,
    );
  }
  const d = result.diagrams;
  ctx.out.print(`diagrams: ${d.rendered} rendered, ${d.cached} cached, ${d.failed} failed, ${d.client} client-side`);
  const kept = result.lessons.length - result.lessonPagesRendered;
  ctx.out.print(`lesson pages: ${result.lessonPagesRendered} rendered, ${kept} unchanged (kept from the last build)`);
  ctx.out.print(
    result.searchKept
      ? `search: ${result.searchPages} pages, index kept (no page changed)`
      : `search: ${result.searchPages} pages indexed`,
  );
  if (result.weights) {
    ctx.out.print('page                                              html      css       js');
    for (const w of result.weights) ctx.out.print(`${w.page.padEnd(48)} ${kb(w.html)} ${kb(w.css)} ${kb(w.js)}`);
  }
  ctx.out.print(
    `built ${result.pages.length} pages (${result.lessons.length} lessons${drafts ? ', drafts' : ''}) in ${(result.ms / 1000).toFixed(1)} s → ${result.out}`,
  );
  if (recorded) ctx.out.print('recorded site.build event');
  return EXIT.ok;
}

/** The job summary of a build: what it published and which lessons it left out, and why. */
function buildSummary(
  result: { lessons: string[]; excluded: Array<{ id: string; title: string; reason: string }>; pages: string[] },
  drafts: boolean,
): string {
  const parts = [
    '### codelabgen site build',
    `${result.pages.length} pages, ${result.lessons.length} lessons published` +
      `${drafts ? ' (drafts: every lesson)' : ''}: ${result.lessons.join(', ') || 'none'}`,
  ];
  if (!drafts && result.excluded.length > 0)
    parts.push(
      `${result.excluded.length} left out of the site:`,
      markdownTable(
        ['Lesson', 'Title', 'Why'],
        result.excluded.map((l) => [l.id, markdownCell(l.title), markdownCell(l.reason)]),
      ),
    );
  return parts.join('\n\n');
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1).padStart(7)}KB`;
}
