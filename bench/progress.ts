// The live board at scale (200 lessons, 20,000 events): how long a `state set` takes to show on an
// open /progress/ page of `site dev` (median of 20, the CLI's own time included), the CPU one update
// costs the server (the tail read, state.json, the board and its HTML, measured in this process with
// the same modules; and the whole dev server's CPU per change, Astro's content refresh included),
// and the page's weight.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { courseAt, followProgress } from '../pipeline/index.ts';
import { lessonLink } from '../pipeline/read/index.ts';
import { renderBoardHtml } from '../pipeline/site/progress-html.ts';
import { freePort, stop, waitForServer } from '../e2e/dev-server.ts';
import { chromiumPath } from '../e2e/paths.ts';
import { buildStateCourse, CLI, lessonsFor } from './state-course.ts';
import { round, summarize, type Summary } from './stats.ts';

const LESSONS = 200;
const EVENTS = 20_000;

export interface ProgressBench {
  lessons: number;
  events: number;
  /** From starting `codelabgen state set` to the change on the open page. */
  update_latency: Summary;
  /** The part of it after the CLI exited: the tail, the board, the stream and the browser. */
  after_command: Summary;
  /** From the CLI's exit to the update arriving on the event stream (no browser). */
  stream_after_command: Summary;
  /** CPU ms of one update in the server's code path (tail + state + board + HTML), median of 20. */
  board_update_cpu_ms: number;
  /** CPU ms of the whole site dev process tree per change (Astro's content refresh included); null without /proc. */
  server_cpu_ms_per_change: number | null;
  page_html_bytes: number;
  update_message_bytes: number;
}

/** CPU ms (user + system) of every process in process group `pgid`, from /proc; null without it. */
function groupCpuMs(pgid: number): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

function writeCurriculum(root: string): void {
  const modules = new Map<string, string[]>();
  for (const lesson of lessonsFor(LESSONS)) {
    const lines = modules.get(lesson.module_id) ?? [];
    lines.push(`      - { id: "${lesson.id}", slug: ${lesson.slug}, title: "${lesson.title}" }`);
    modules.set(lesson.module_id, lines);
  }
  const body = [...modules]
    .map(
      ([id, lines]) =>
        `  - id: "${id}"\n    slug: module-${id}\n    title: Module ${id}\n    lessons:\n${lines.join('\n')}`,
    )
    .join('\n');
  writeFileSync(path.join(root, '.codelabgen', 'curriculum.yaml'), `title: Synthetic course\nmodules:\n${body}\n`);
}

function runCli(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(Date.now()) : reject(new Error(`codelabgen ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** CPU ms of one board update in this process, the way site dev's stream makes it. */
function boardUpdateCpu(root: string): number {
  const source = followProgress(courseAt(root));
  const samples: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = process.cpuUsage();
    renderBoardHtml(source.board(), { lesson: (lesson) => lessonLink('/', lesson) });
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / 1000);
  }
  source.close();
  return summarize(samples).median_ms;
}

export async function benchProgress(quick: boolean): Promise<ProgressBench> {
  const rounds = quick ? 5 : 20;
  const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-progress-'));
  const root = path.join(work, 'course');
  buildStateCourse(root, { lessons: LESSONS, events: EVENTS, specs: true });
  writeCurriculum(root);
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'site', 'dev', '--course', root, '--port', String(port)], {
    cwd: work,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let stream: Response | undefined;
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  try {
    const url = `http://localhost:${port}/progress/`;
    await waitForServer(url, 180_000, child, () => output);
    const pageHtml = await (await fetch(url)).text();
    const page = await browser.newPage();
    let messageBytes = 0;
    await page.goto(url);
    await page.waitForSelector('html[data-progress-live="on"]', { timeout: 60_000 });
    const latency: number[] = [];
    const after: number[] = [];
    const streamed: number[] = [];
    const arrivals: number[] = [];
    stream = await fetch(`http://localhost:${port}/_codelabgen/progress.events`);
    const reader = stream.body!.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        if (Buffer.from(value!).includes('event: board')) arrivals.push(Date.now());
      }
    })();
    const cpuBefore = groupCpuMs(child.pid!);
    for (let i = 0; i < rounds; i += 1) {
      const target = i % 2 === 0 ? 'spec' : 'pending';
      const seq =
        Number(
          await page
            .locator('.pg-board')
            .getAttribute('data-seq')
            .catch(() => null),
        ) || 0;
      const started = Date.now();
      const exited = runCli([
        'state',
        'set',
        '1.1',
        target,
        ...(target === 'pending' ? ['--note', 'bench'] : []),
        '--course',
        root,
      ]);
      await page.waitForFunction(
        (previous) => Number(document.querySelector<HTMLElement>('.pg-board')?.dataset.seq ?? 0) > previous,
        seq,
        { polling: 'raf', timeout: 30_000 },
      );
      const seen = Date.now();
      latency.push(seen - started);
      const exit = await exited;
      after.push(Math.max(0, seen - exit));
      const arrived = arrivals.at(-1);
      if (arrived !== undefined && arrived >= started) streamed.push(Math.max(0, arrived - exit));
      messageBytes = Buffer.byteLength(await page.locator('.pg-board').innerHTML());
    }
    // Let the content refresh of the last change finish before reading the CPU.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const cpuAfter = groupCpuMs(child.pid!);
    return {
      lessons: LESSONS,
      events: EVENTS,
      update_latency: summarize(latency),
      after_command: summarize(after),
      stream_after_command: summarize(streamed),
      board_update_cpu_ms: round(boardUpdateCpu(root), 2),
      server_cpu_ms_per_change:
        cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / rounds, 1),
      page_html_bytes: Buffer.byteLength(pageHtml),
      update_message_bytes: messageBytes,
    };
  } finally {
    await browser.close();
    await stream?.body?.cancel().catch(() => {});
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await stop(child);
    rmSync(work, { recursive: true, force: true });
  }
}
