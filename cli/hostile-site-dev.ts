// The `site dev` part of the hostile-course fuzzer (cli/hostile-course.test.ts): the dev server on a
// hostile tree, its index, each lesson page it links and one asset, then SIGTERM. Returns the problems:
// a start or an answer past its deadline, an exit other than 0, 1 or 2, a 500 naming a path outside the
// course, an answer or a log holding the canary, served HTML that runs script from the course, and a
// server (or a process of its group) still running after SIGTERM. Besides, seeded hostile request paths
// (DEV_HOSTILE_REQUESTS): an error answer (4xx or 5xx) to one must name no path outside the course.
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../e2e/dev-server.ts';
import { groupMembers } from '../scripts/process-group.ts';
import { outsideContent, PUBLISHED_SCRIPT } from './hostile-trees.ts';
import { LESSON_DIRS } from './protocol-fixture.ts';
import { CLI, REPO_ROOT } from './testing.ts';

/** The first answer (ms): Astro compiles the site on start, slowly on a loaded machine. */
export const DEV_START_DEADLINE_MS = 240_000;
/** Each page or asset (ms): a lesson page is compiled on its first view. */
export const DEV_REQUEST_DEADLINE_MS = 120_000;
/** From SIGTERM to the server's exit (ms). */
export const DEV_STOP_DEADLINE_MS = 15_000;

/** Hostile request paths sent to each dev server (seeded). */
export const DEV_HOSTILE_REQUESTS = 24;

interface Served {
  url: string;
  status: number;
  body: string;
}

/** Absolute paths in `text` under the temp folder, this repository, the home folder or the system's, outside `root`. */
export function pathsOutside(text: string, root: string): string[] {
  const prefixes = [tmpdir(), REPO_ROOT, homedir(), '/etc', '/usr', '/proc'].map((prefix) =>
    prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  const found = text.match(new RegExp(`(?:${prefixes.join('|')})(?:/[^\\s"'<>()\`]*)?`, 'g')) ?? [];
  return [...new Set(found.filter((at) => at !== root && !at.startsWith(`${root}/`)))];
}

async function fetchWithin(url: string): Promise<Served> {
  const response = await fetch(url, { signal: AbortSignal.timeout(DEV_REQUEST_DEADLINE_MS), redirect: 'follow' });
  return { url, status: response.status, body: await response.text() };
}

/** Polls `url` until any HTTP answer, the server's exit, or the deadline; true when it answered. */
async function answered(url: string, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + DEV_START_DEADLINE_MS;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(DEV_REQUEST_DEADLINE_MS) });
      return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** What is wrong with one answer of the dev server; `errors`: the status from which a body must name no path. */
function answerProblems(served: Served, root: string, errors = 500): string[] {
  const problems: string[] = [];
  if (served.status >= errors) {
    // On every page (a 200 too), not an error's leak: the page's own assets name codelabgen's files as
    // Vite's dev server serves them (/@fs/ URLs, a style's data-vite-dev-id), and the author's banner of
    // the course's problems (site/components/DevLive.astro) says where a symlink of the course leads.
    const assets = /\/@fs\/[^\s"'<>()`]*|\bdata-vite-dev-id="[^"]*"|<div class="dev-problems"[^>]*>[\s\S]*?<\/div>/g;
    const leaked = pathsOutside(served.body.replace(assets, ''), root);
    if (leaked.length > 0)
      problems.push(
        `${served.url}: ${served.status} naming paths outside the course: ${leaked.slice(0, 5).join(', ')}`,
      );
  }
  for (const leaked of outsideContent(served.body)) problems.push(`${served.url}: served ${leaked}`);
  if (PUBLISHED_SCRIPT.test(served.body)) problems.push(`${served.url}: serves script from the course`);
  return problems;
}

/** Where a hostile path starts: the site's routes, codelabgen's own middlewares, Vite's and Astro's. */
const HOSTILE_PREFIXES = [
  '/',
  '/lessons/',
  `/lessons/${path.basename(LESSON_DIRS['1.2']!)}/`,
  '/_codelabgen/mermaid/',
  '/_codelabgen/progress.events',
  '/@fs/',
  '/@fs/etc/',
  '/@id/',
  '/@vite/',
  '/_astro/',
  '/_image?href=',
  '/node_modules/',
  '/src/',
  '/progress/',
];
/** Its middle: bad escapes, traversals, NUL, overlong UTF-8, files the server must not serve, long names. */
const HOSTILE_PARTS = [
  '%ZZ',
  '%E0%A4%A',
  '%',
  '%00',
  '%C0%AE%C0%AE/',
  '..%2f..%2fetc%2fpasswd',
  '../../../etc/passwd',
  '%2e%2e/%2e%2e/',
  '..%5c..%5c',
  'passwd',
  '.env',
  '.git/config',
  '.codelabgen/events.jsonl',
  'secrets.yaml',
  '%F0%9F%98%80',
  'a'.repeat(2000),
  '%uD800',
  '%%',
];
/** Its end: Vite's query flags, a script or image suffix, nothing. */
const HOSTILE_SUFFIXES = ['', '/', '?import', '?raw', '?url', '?inline', '.js', '.svg', '?v=%ZZ', '#x'];

/** `count` request paths (seeded): a prefix, one or two parts, a suffix, sometimes the course's own path. */
export function hostileRequestPaths(random: () => number, count: number, root: string): string[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, () => {
    const parts = [pick(HOSTILE_PARTS), ...(random() < 0.4 ? [pick(HOSTILE_PARTS)] : [])];
    const prefix = random() < 0.15 ? `/@fs${root}/` : pick(HOSTILE_PREFIXES);
    return `${prefix}${parts.join(random() < 0.5 ? '/' : '')}${pick(HOSTILE_SUFFIXES)}`;
  });
}

/** GETs `pathname` exactly as written (fetch() would resolve its dot segments). */
function getRaw(base: string, pathname: string): Promise<Served> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port, path: pathname, timeout: DEV_REQUEST_DEADLINE_MS }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ url: `${base}${pathname}`, status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    sent.on('timeout', () =>
      sent.destroy(new Error(`${pathname}: no answer within ${DEV_REQUEST_DEADLINE_MS / 1000} s`)),
    );
    sent.on('error', reject);
    sent.end();
  });
}

/**
 * The index, each lesson page (`lessonPages`, and those the index links: a broken curriculum may list
 * none), one asset (an image of a lesson page, else a stylesheet), and files outside the course (and
 * a doc the lesson may link out) asked for by path under Vite's /@fs/.
 */
async function browse(
  base: string,
  root: string,
  outside: string,
  lessonPages: readonly string[],
  random: () => number,
): Promise<string[]> {
  const problems: string[] = [];
  const index = await fetchWithin(`${base}/`);
  problems.push(...answerProblems(index, root));
  const linked = [...index.body.matchAll(/href="(\/lessons\/[^"/]+\/)"/g)].map((match) => match[1]!);
  const lessons = [...new Set([...lessonPages, ...linked])];
  const assets: string[] = [];
  for (const lesson of lessons) {
    const page = await fetchWithin(`${base}${lesson}`);
    problems.push(...answerProblems(page, root));
    for (const match of page.body.matchAll(/<img[^>]*\bsrc="(\/[^"]+)"/g))
      assets.push(match[1]!.replaceAll('&amp;', '&'));
  }
  const stylesheet = /<link[^>]*\brel="stylesheet"[^>]*\bhref="(\/[^"]+)"/.exec(index.body)?.[1];
  const asset = assets[0] ?? stylesheet;
  if (asset !== undefined) problems.push(...answerProblems(await fetchWithin(`${base}${asset}`), root));
  // Vite serves files by absolute path under /@fs/: none outside the course, none the course links out to.
  for (const file of [`${outside}/secret.txt`, '/etc/passwd', `${root}/${LESSON_DIRS['1.2']}/docs/notes.md`])
    problems.push(...answerProblems(await fetchWithin(`${base}/@fs${file}`), root));
  // Hostile paths: whatever the answer, an error names no path outside the course (a stack, an allow-list).
  for (const pathname of hostileRequestPaths(random, DEV_HOSTILE_REQUESTS, root))
    problems.push(...answerProblems(await getRaw(base, pathname), root, 400));
  return problems;
}

/**
 * Runs `codelabgen site dev` in `root` on a free port, browses it (the index, `lessonPages` such as
 * `/lessons/1.1-readable/` and the lesson pages the index links, one asset), stops it with SIGTERM;
 * returns the problems. `onStart` gets a function that kills its process group, for the test's
 * t.after() (it runs when the test times out, unlike this function's own cleanup).
 */
export async function siteDevProblems(
  root: string,
  outside: string,
  lessonPages: readonly string[],
  random: () => number,
  onStart: (stopGroup: () => void) => void,
): Promise<string[]> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '10' };
  delete env.CODELABGEN_COURSE;
  const child = spawn(process.execPath, [CLI, 'site', 'dev', '--port', String(port)], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stopGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  };
  onStart(stopGroup);
  let log = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const problems: string[] = [];
  const base = `http://localhost:${port}`;
  try {
    if (await answered(`${base}/`, child)) problems.push(...(await browse(base, root, outside, lessonPages, random)));
    else if (child.exitCode === null && child.signalCode === null)
      problems.push(`site dev: no answer within ${DEV_START_DEADLINE_MS / 1000} s (a hang)\n${log.slice(-1500)}`);
    else if (![0, 1, 2].includes(child.exitCode ?? -1))
      problems.push(`site dev: ended with ${child.exitCode ?? child.signalCode} before serving\n${log.slice(-1500)}`);
  } catch (error) {
    problems.push(`site dev: ${(error as Error).message}\n${log.slice(-1500)}`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await exited(child, DEV_STOP_DEADLINE_MS)))
        problems.push(`site dev: still running ${DEV_STOP_DEADLINE_MS / 1000} s after SIGTERM`);
    }
    // A process of its group (the Astro worker) may take a moment to see its parent gone.
    if (child.pid !== undefined && groupMembers(child.pid).length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const left = groupMembers(child.pid);
      if (left.length > 0)
        problems.push(`site dev: still running after it stopped: ${left.map((member) => member.command).join('; ')}`);
    }
    stopGroup();
    await exited(child, DEV_STOP_DEADLINE_MS);
  }
  for (const leaked of outsideContent(log)) problems.push(`site dev: printed ${leaked}`);
  return problems;
}
