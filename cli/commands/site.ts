// `codelabgen site build|dev|preview`: the course site. Astro, mermaid and pagefind load only here
// (dynamic import of pipeline/site/index.ts, whose modules import them lazily in turn).
import path from 'node:path';
import { ChecksFailedError, commit, decideSiteBuild, RefusalError, type Course } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { courseOf, reportNotices } from '../course.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';

export async function run(ctx: Context): Promise<ExitCode> {
  const course = courseOf(ctx);
  if (ctx.command === 'site build') return build(ctx, course);
  const site = await import('../../pipeline/site/index.ts');
  const port = portOf(ctx);
  if (ctx.command === 'site dev') {
    const { diagramCacheDir } = await import('../../pipeline/site/index.ts');
    const server = await site.runAstro('dev', { root: course.root, out: path.join(ctx.cwd, 'dist-site'), base: site.normalizeBase(ctx.string('base') ?? '/'), drafts: true, cacheDir: diagramCacheDir(ctx.env), port });
    return waitForInterrupt(server);
  }
  const outArg = ctx.string('out') ?? 'site-out';
  const out = site.checkOut(course.root, path.resolve(ctx.cwd, outArg));
  if (!site.isSiteBuild(out)) throw new RefusalError(`--out ${outArg} is not a codelabgen site build`, [`build it first: codelabgen site build --out ${outArg}`]);
  const server = await site.runAstro('preview', { root: course.root, out, base: site.normalizeBase(ctx.string('base') ?? '/'), drafts: false, cacheDir: '', port });
  return waitForInterrupt(server);
}

function portOf(ctx: Context): number | undefined {
  const port = ctx.string('port');
  if (port === undefined) return undefined;
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new RefusalError(`--port ${port}: expected a port number 1-65535`);
  return Number(port);
}

async function waitForInterrupt(server: { stop(): Promise<void> } | null): Promise<ExitCode> {
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server?.stop();
  return EXIT.ok;
}

async function build(ctx: Context, course: Course): Promise<ExitCode> {
  const { buildSite } = await import('../../pipeline/site/index.ts');
  const drafts = ctx.flag('drafts');
  const json = ctx.flag('json');
  const progress = (step: string, detail: string) => {
    if (json) return;
    if (ctx.out.isTTY) ctx.out.status(`site build: ${step}: ${detail}`);
    else ctx.out.warn(`site build: ${step}: ${detail}`);
  };
  const result = await buildSite({
    root: course.root,
    out: path.resolve(ctx.cwd, ctx.string('out') ?? 'site-out'),
    base: ctx.string('base') ?? '/',
    site: ctx.string('site'),
    drafts,
    stats: ctx.flag('stats'),
    env: ctx.env,
    progress,
  }).finally(() => ctx.out.clearStatus());
  if (ctx.flag('strict-diagrams') && result.diagrams.client > 0) {
    const count = result.diagrams.client;
    throw new ChecksFailedError(`site build: ${count} diagram${count === 1 ? '' : 's'} left to the reader's browser (no Chromium found, or it could not draw ${count === 1 ? 'it' : 'them'}); install Chromium or set $CODELABGEN_CHROMIUM, or drop --strict-diagrams to accept that`);
  }
  const recorded = !drafts && (await recordBuild(ctx, course, result.out, result.pages.length, result.lessons));
  if (json) {
    ctx.out.json({ ...result, drafts, recorded });
    return EXIT.ok;
  }
  for (const problem of result.diagramErrors) ctx.out.warn(`warning: ${problem} (shown as an error box)`);
  if (!drafts && result.excluded.length > 0) {
    ctx.out.warn(`warning: ${result.excluded.length} lesson${result.excluded.length === 1 ? '' : 's'} left out (not done): ${result.excluded.map((l) => `${l.id} (${l.stage})`).join(', ')}`);
  }
  const d = result.diagrams;
  ctx.out.print(`diagrams: ${d.rendered} rendered, ${d.cached} cached, ${d.failed} failed, ${d.client} client-side`);
  if (result.weights) {
    ctx.out.print('page                                              html      css       js');
    for (const w of result.weights) ctx.out.print(`${w.page.padEnd(48)} ${kb(w.html)} ${kb(w.css)} ${kb(w.js)}`);
  }
  ctx.out.print(`built ${result.pages.length} pages (${result.lessons.length} lessons${drafts ? ', drafts' : ''}) in ${(result.ms / 1000).toFixed(1)} s → ${result.out}`);
  if (recorded) ctx.out.print('recorded site.build event');
  return EXIT.ok;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1).padStart(7)}KB`;
}

/** A publish build of a course with a state is recorded (so `assembly` can be left). */
async function recordBuild(ctx: Context, course: Course, out: string, pages: number, lessons: string[]): Promise<boolean> {
  const { existsSync } = await import('node:fs');
  if (!existsSync(path.join(course.dir, 'state.json'))) return false;
  const committed = await commit(course, { command: ctx.commandLine }, () => decideSiteBuild({ out, pages, lessons }));
  reportNotices(ctx, committed.notices);
  return true;
}
