// `codelabgen site dev` on a copy of the demo course with a browser open: 20 saves in a row
// (readalong, notes, code, curriculum, state; some < 100 ms apart) each show within 2 s, then
// broken content is printed in the terminal as `error:` lines as well as shown in the page. Timed:
// the `dev` project runs this file alone (playwright.config.ts). The two tests share one server
// (a worker restarted after a failure starts its own).
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, type Page } from '@playwright/test';
import { lessonDir, lessons } from './course.ts';
import { cliPath } from './paths.ts';
import { startDev, warmUp, type DevServer } from './dev-course.ts';

function codelabgen(course: string, args: string[]): void {
  const result = spawnSync(process.execPath, [cliPath(), ...args, '--course', course], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
}

/** Replaces the lesson's title line in the curriculum (the YAML stays as the author wrote it). */
function retitle(course: string, from: string, to: string): void {
  const file = path.join(course, '.codelabgen', 'curriculum.yaml');
  const text = readFileSync(file, 'utf8');
  const next = text.replace(`title: ${from}\n`, `title: ${to}\n`).replace(`title: "${from}"\n`, `title: "${to}"\n`);
  expect(next, `title ${from} not found in the curriculum`).not.toBe(text);
  writeFileSync(file, next);
}

const SHOWS_WITHIN = 2_000; // ms from a save to the page showing it (docs/site.md, "Rebuilds and the dev preview")

async function shows(page: Page, text: string): Promise<void> {
  await expect(page.locator('body')).toContainText(text, { timeout: SHOWS_WITHIN });
}

let dev: DevServer;
test.beforeAll(async () => {
  test.setTimeout(300_000);
  dev = await startDev();
});
test.afterAll(async () => dev?.close());

test('site dev: 20 saves in a row, some < 100 ms apart, each show in the open page within 2 s', async ({ page }) => {
  test.setTimeout(300_000);
  try {
    const lesson = lessons()[1] ?? lessons()[0]!;
    const dir = lessonDir(lesson, dev.course);
    await page.goto(`http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${lesson.title}`);
    await warmUp(page, path.join(dir, 'docs', 'notes.md'));
    const code = path.join(dir, readFileSync(path.join(dir, 'docs', 'readalong.md'), 'utf8').match(/file=([^\s]+)/)?.[1] ?? 'missing');
    let title = lesson.title;
    let saves = 0;
    for (let round = 1; round <= 4; round++) {
      // readalong and notes saved back to back (well under 100 ms apart)
      const readalong = `Readalong save ${round}`;
      const notes = `Notes save ${round}`;
      appendFileSync(path.join(dir, 'docs', 'readalong.md'), `\n\n${readalong}.\n`);
      appendFileSync(path.join(dir, 'docs', 'notes.md'), `\n\n${notes}.\n`);
      await shows(page, readalong);
      await shows(page, notes);
      appendFileSync(code, `\n// code save ${round}\n`);
      await shows(page, `code save ${round}`);
      const newTitle = `${lesson.title} (rev ${round})`;
      retitle(dev.course, title, newTitle);
      title = newTitle;
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${newTitle}`, { timeout: SHOWS_WITHIN });
      if (round % 2 === 1) {
        codelabgen(dev.course, ['state', 'block', lesson.id, '--reason', `decision ${round} needed`]);
        await shows(page, `Blocked: decision ${round} needed`);
      } else {
        codelabgen(dev.course, ['state', 'unblock', lesson.id]);
        await expect(page.locator('body')).not.toContainText('Blocked:', { timeout: SHOWS_WITHIN });
      }
      saves += 5;
    }
    expect(saves).toBe(20);
    // Every save is still there after a manual reload (none was served stale).
    await page.reload();
    for (let round = 1; round <= 4; round++) await shows(page, `Notes save ${round}`);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- site dev output ---\n${dev.output()}`, { cause: error });
  }
});

test('site dev: /progress/ shows state set, state task start and state block as they happen, with no reload', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  try {
    const [reopened, moved] = [lessons()[0]!, lessons()[2] ?? lessons()[1]!];
    // Mid-generation: a lesson moved back reopens the finished course (phase lessons again).
    codelabgen(dev.course, ['state', 'set', reopened.id, 'notes', '--note', 'notes too thin', '--reopen']);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`http://localhost:${dev.port}/progress/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Progress');
    // Live once the stream is open: from then on a content reload of site dev leaves this page alone.
    await expect(page.locator('html')).toHaveAttribute('data-progress-live', 'on', { timeout: 10_000 });
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
    await expect(page.locator('.pg-phase[aria-current="step"]')).toContainText('lessons');
    const column = (stage: string) => page.getByRole('region', { name: new RegExp(`^${stage} \\d+$`) });
    await expect(column('notes').locator(`[data-lesson="${reopened.id}"]`)).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 400));
    const scrolled = await page.evaluate(() => window.scrollY);

    codelabgen(dev.course, ['state', 'set', moved.id, 'readalong', '--note', 'example 2 unclear']);
    await expect(column('readalong').locator(`[data-lesson="${moved.id}"]`)).toBeVisible({ timeout: SHOWS_WITHIN });
    await expect(page.locator('.pg-feed li').first()).toContainText(`${moved.id} rework moved back done → readalong: example 2 unclear`);

    codelabgen(dev.course, ['state', 'task', 'start', moved.id]);
    const card = page.locator(`.pg-card[data-lesson="${moved.id}"]`);
    await expect(card.locator('.pg-task')).toContainText('notes-writer', { timeout: SHOWS_WITHIN });
    await expect(page.getByRole('region', { name: /^Running tasks 1$/ })).toContainText(`lesson ${moved.id}`);

    codelabgen(dev.course, ['state', 'block', reopened.id, '--reason', 'the user picks the example']);
    const human = page.getByRole('region', { name: /^Needs a human/ });
    await expect(human).toContainText(`codelabgen state unblock ${reopened.id} --note "your decision"`, { timeout: SHOWS_WITHIN });
    await expect(human).toContainText(`state_unblock {"id":"${reopened.id}","note":"your decision"}`);
    await expect(page.locator(`.pg-card[data-lesson="${reopened.id}"] .pg-flag-blocked`)).toHaveText('blocked (user)');

    expect(navigations, 'the page was never reloaded').toEqual([]);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] }).analyze();
    expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)).toEqual([]);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      const { violations: themed } = await new AxeBuilder({ page }).setLegacyMode(true).withRules(['color-contrast']).analyze();
      expect(themed.map((v) => `${theme}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(testInfo.project.outputDir, 'screenshots', `progress-${theme}-1280.png`), fullPage: true });
    }
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- site dev output ---\n${dev.output()}`, { cause: error });
  }
});

// Last: it leaves the curriculum broken.
test('site dev: a broken code reference, bad YAML and a mermaid syntax error print error: lines', async ({ page }) => {
  test.setTimeout(300_000);
  try {
    const lesson = lessons()[0]!;
    const dir = lessonDir(lesson, dev.course);
    await page.goto(`http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/`);
    await warmUp(page, path.join(dir, 'docs', 'notes.md'));
    appendFileSync(path.join(dir, 'docs', 'readalong.md'), '\n```ts file=src/no-such-file.ts\n```\n');
    await expect(page.locator('body')).toContainText('no such file in the lesson folder', { timeout: 30_000 });
    await expect.poll(dev.output, { timeout: 10_000 }).toMatch(new RegExp(`^error: lesson ${lesson.id.replace('.', '\\.')} docs/readalong\\.md:\\d+: code reference file=src/no-such-file\\.ts: no such file in the lesson folder$`, 'm'));
    appendFileSync(path.join(dir, 'docs', 'notes.md'), '\n```mermaid\nflowchart LR\n  A -->\n```\n');
    await expect.poll(dev.output, { timeout: 30_000 }).toMatch(new RegExp(`^error: lesson ${lesson.id.replace('.', '\\.')} diagram docs/notes\\.md:\\d+ .*`, 'm'));
    const curriculum = path.join(dev.course, '.codelabgen', 'curriculum.yaml');
    appendFileSync(curriculum, '  broken: [\n');
    await expect.poll(dev.output, { timeout: 10_000 }).toMatch(/^error: \.codelabgen\/curriculum\.yaml: invalid YAML: /m);
    await expect(page.locator('body')).toContainText('error: .codelabgen/curriculum.yaml: invalid YAML', { timeout: 30_000 });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- site dev output ---\n${dev.output()}`, { cause: error });
  }
});
