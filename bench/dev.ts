// `site dev`'s save → page figure: the example course (examples/node-streams, copied) under `site dev`
// with a lesson open in Chromium; a notes save (every other one an editor's atomic rename), timed in
// the page's clock from just before the save to a MutationObserver seeing the text in the main
// column. One untimed warm-up save first; the next save comes 1.5 s after the last showed (the dev
// server's check of the course after a save, as an author would pace them). The browser tests
// (e2e/dev.spec.ts) prove every save shows, in place; this measures how fast.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright';
import { freePort, stop, waitForServer } from '../e2e/dev-server.ts';
import { chromiumPath } from '../e2e/paths.ts';
import { CLI } from './state-course.ts';
import { summarize, type Summary } from './stats.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COURSE = path.join(REPO, 'examples', 'node-streams');
const LESSON = path.join('1-stream-fundamentals', '1.1-readable-streams');

export interface DevBench {
  saves: number;
  /** ms from a notes save to its text in the open page (in place, no reload). */
  save_to_visible: Summary;
  /** Content syncs `site dev` printed for the timed saves (one per save when its events coalesce). */
  content_syncs: number;
}

/** Saves `text` into the notes (appended, or written to a new file renamed over the old one) and
 * returns the ms until the page shows it. */
async function timedSave(page: Page, notes: string, text: string, rename: boolean): Promise<number> {
  await page.evaluate((t) => {
    const w = window as unknown as { shownAt?: number; savedAt?: number };
    delete w.shownAt;
    const observer = new MutationObserver(() => {
      if (!document.querySelector('main')?.textContent?.includes(t)) return;
      w.shownAt = performance.now();
      observer.disconnect();
    });
    observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    w.savedAt = performance.now();
  }, text);
  if (rename) {
    writeFileSync(`${notes}.tmp`, `${readFileSync(notes, 'utf8')}\n\n${text}.\n`);
    renameSync(`${notes}.tmp`, notes);
  } else appendFileSync(notes, `\n\n${text}.\n`);
  await page.waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt !== undefined, undefined, {
    timeout: 60_000,
  });
  return page.evaluate(() => {
    const w = window as unknown as { shownAt: number; savedAt: number };
    return Math.round(w.shownAt - w.savedAt);
  });
}

export async function benchDev(quick: boolean): Promise<DevBench> {
  const saves = quick ? 4 : 10;
  const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-dev-'));
  const root = path.join(work, 'course');
  cpSync(COURSE, root, { recursive: true });
  const notes = path.join(root, LESSON, 'docs', 'notes.md');
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
  const syncs = () => output.split('\n').filter((line) => line.includes('Syncing content')).length;
  const browser = await chromium.launch({ executablePath: chromiumPath() });
  try {
    const url = `http://localhost:${port}/lessons/${path.basename(LESSON)}/`;
    await waitForServer(url, 180_000, child, () => output);
    const page = await browser.newPage();
    await page.goto(url);
    await timedSave(page, notes, 'Warm-up save', false);
    await page.waitForTimeout(1_500);
    const syncsBefore = syncs();
    const times: number[] = [];
    for (let i = 1; i <= saves; i += 1) {
      times.push(await timedSave(page, notes, `Bench save ${i}`, i % 2 === 0));
      await page.waitForTimeout(1_500);
    }
    return { saves, save_to_visible: summarize(times), content_syncs: syncs() - syncsBefore };
  } finally {
    await browser.close();
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await stop(child);
    rmSync(work, { recursive: true, force: true });
  }
}
