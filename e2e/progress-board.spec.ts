// The producer's board (/progress/ in `site dev`) from `init` to done: a course just made by init has
// a board (it answered 500 before its curriculum existed); a gate's card links to what to review;
// mid-run a failed verification is a red card with its cause, with the progress bar and the cost;
// at done the cost so far. Screenshots: test-results/screenshots/progress-{init,gate,failure,done}-1280.png.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { courseDir, lessons } from './course.ts';
import { freePort, stop, waitForServer } from './dev-server.ts';
import { cliPath } from './paths.ts';

function codelabgen(course: string, args: string[]): string {
  const result = spawnSync(process.execPath, [cliPath(), ...args, '--course', course], { encoding: 'utf8' });
  expect(result.status, `codelabgen ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

/** `site dev` on `course`; stops it (its whole process group) and removes `work` when the test ends. */
async function siteDev(
  course: string,
  work: string,
): Promise<{ port: number; output: () => string; close: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [cliPath(), 'site', 'dev', '--course', course, '--port', String(port)], {
    cwd: work,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const close = async () => {
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM');
    await stop(child);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    // Answering at `/` (not the board): the board is then first rendered for the browser, as a user opens it.
    await waitForServer(`http://localhost:${port}/`, 180_000, child, () => output);
  } catch (error) {
    await close();
    throw error;
  }
  return { port, output: () => output, close };
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(testInfo.project.outputDir, 'screenshots', `${name}.png`), fullPage: true });
}

/** Page errors and console errors of `page`, collected from now on. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return errors;
}

test('the board from init: it answers at once, follows the phases live and links a gate to what to review', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-e2e-board-'));
  const course = path.join(work, 'course');
  spawnSync(process.execPath, [cliPath(), 'init', course, '--title', 'Fresh course'], { encoding: 'utf8' });
  const dev = await siteDev(course, work);
  try {
    const errors = errorsOf(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    // A fresh dev server asks the first page that connects for a reload: the board, live by its own
    // stream, never takes it (its stream's first event is the board as it is then). Also when its
    // scripts come after Vite's client has connected and read that reload (transformed slowly, on a
    // loaded machine): held back here by 1.5 s each, Base.astro's reload guard must hold the reload.
    await page.route(/[?&]type=script\b/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    const loads: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && loads.push(frame.url()));
    const response = await page.goto(`http://localhost:${dev.port}/progress/`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Progress');
    await expect(page.locator('.pg-status')).toContainText('phase init');
    // No curriculum before its phase is where the course is, not a problem: no red banner.
    await expect(page.getByText('A problem in the course')).toHaveCount(0);
    await expect(page.locator('html')).toHaveAttribute('data-progress-live', 'on', { timeout: 10_000 });
    await expect(page.getByRole('progressbar', { name: 'Stages done' })).toHaveAttribute('aria-valuenow', '0');
    await shot(page, testInfo, 'progress-init-1280');

    codelabgen(course, ['state', 'phase', 'recon']);
    await expect(page.locator('.pg-status')).toContainText('phase recon', { timeout: 10_000 });
    mkdirSync(path.join(course, '.codelabgen', 'research'), { recursive: true });
    writeFileSync(
      path.join(course, '.codelabgen', 'research', 'overview.md'),
      '# Overview\n\nStreams move data in chunks.\n',
    );
    codelabgen(course, ['state', 'phase', 'sources']);
    const source = {
      id: 'node-docs',
      title: 'Node docs',
      url: 'https://nodejs.org/api/stream.html',
      kind: 'official-docs',
      status: 'accepted',
    };
    writeFileSync(path.join(course, '.codelabgen', 'sources.jsonl'), `${JSON.stringify(source)}\n`);
    mkdirSync(path.join(course, '.codelabgen', 'sources'), { recursive: true });
    writeFileSync(path.join(course, '.codelabgen', 'sources', 'node-docs.md'), '# Digest\n');
    codelabgen(course, ['state', 'phase', 'gate_sources']);
    const gate = page.locator('.pg-human-gate');
    await expect(gate).toContainText('gate gate_sources', { timeout: 10_000 });
    await expect(gate).toContainText('codelabgen state phase topics --approved');
    await expect(gate.getByRole('link', { name: 'sources' })).toHaveAttribute('href', '/progress/sources/');
    await shot(page, testInfo, 'progress-gate-1280');
    expect(loads, 'the board was reloaded').toEqual([`http://localhost:${dev.port}/progress/`]);
    await gate.getByRole('link', { name: 'research overview' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Review: research overview');
    await expect(page.locator('main')).toContainText('Streams move data in chunks.');
    expect(errors, 'no page or console error').toEqual([]);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- site dev output ---\n${dev.output()}`, { cause: error });
  } finally {
    await dev.close();
  }
});

test('the board at done and mid-run: the cost so far, then a failed verification red with its cause', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-e2e-board-'));
  const course = path.join(work, 'course');
  cpSync(courseDir(), course, { recursive: true });
  const dev = await siteDev(course, work);
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`http://localhost:${dev.port}/progress/`);
    await expect(page.locator('html')).toHaveAttribute('data-progress-live', 'on', { timeout: 10_000 });
    await expect(page.locator('.pg-status')).toContainText('phase done');
    const all = lessons().length;
    await expect(page.getByRole('progressbar', { name: 'Stages done' })).toHaveAttribute(
      'aria-valuenow',
      String(all * 7),
    );
    await expect(page.locator('.pg-cost')).toContainText(/cost so far \$\d+\.\d\d, [\d,]+ tokens/);
    await shot(page, testInfo, 'progress-done-1280');

    const failing = lessons()[1] ?? lessons()[0]!;
    codelabgen(course, ['state', 'set', failing.id, 'code', '--note', 'the example needs a second stream', '--reopen']);
    codelabgen(course, ['state', 'fail', failing.id, '--note', 'pipeline: expected 3 chunks, got 2']);
    const card = page.locator(`.pg-card[data-lesson="${failing.id}"]`);
    await expect(card).toHaveClass(/pg-card-failed/, { timeout: 10_000 });
    await expect(card.locator('.pg-failure')).toHaveText('verify failed: pipeline: expected 3 chunks, got 2');
    await expect(page.getByRole('progressbar', { name: 'Stages done' })).toHaveAttribute(
      'aria-valuenow',
      String(all * 7 - 5),
    );
    // Every card shows in full: no column scrolls on its own.
    const scrolling = await page.$$eval(
      '.pg-cards',
      (lists) => lists.filter((l) => l.scrollHeight > l.clientHeight + 1).length,
    );
    expect(scrolling).toBe(0);
    await shot(page, testInfo, 'progress-failure-1280');
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- site dev output ---\n${dev.output()}`, { cause: error });
  } finally {
    await dev.close();
  }
});
