// `codelabgen site dev` on a copy of the demo course with a browser open: 20 saves in a row
// (readalong, notes, code, curriculum, state; some < 100 ms apart) each show in the open page; one save
// updates the open page in place (no load, the main column never empty, the theme menu showing the
// reader's choice from the start, one content sync per save); a page whose fetch of itself raced the
// sync fetches again once the server says the sync is served; a broken course file shows a red banner
// until it is fixed; then broken content is printed in the terminal as `error:` lines as well as shown
// in the page. Nothing here is timed (the project's rule: tests count, benchmarks time): the waits
// are generous, so that the file runs beside the other browser and Node tests on a loaded machine;
// how fast a save shows is `npm run bench -- --only dev` (bench/dev.ts). The tests run in order in one
// worker (playwright.config.ts, project `dev`) and share one server (a worker restarted after a
// failure starts its own).
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
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

/** How long a save may take to show before the test gives up: a generous wait, not a budget. The
 * Node tests run beside this file: in a full npm test at load average 30-45 on 2 cores, a save once
 * did not show within 30 s (no content sync started meanwhile; the course check after a save holds
 * the dev server, docs/site.md). The figure is bench/dev.ts's. */
const SHOWS = 60_000;

async function shows(page: Page, text: string): Promise<void> {
  await expect(page.locator('body')).toContainText(text, { timeout: SHOWS });
}

let dev: DevServer;
/** What the test's pages logged (DevLive says why it reloaded a page, or gave up fetching it again). */
let consoleLines: string[] = [];
test.beforeEach(({ context }) => {
  consoleLines = [];
  context.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
});

/** A failure with what the dev server printed and what the pages logged: what a trace would show. */
function withOutput(error: unknown): Error {
  const logged = consoleLines.length > 0 ? consoleLines.join('\n') : '(nothing)';
  return new Error(
    `${(error as Error).message}\n--- site dev output ---\n${dev.output()}\n--- the pages' console ---\n${logged}`,
    { cause: error },
  );
}
test.beforeAll(async () => {
  test.setTimeout(300_000);
  dev = await startDev();
});
test.afterAll(async () => dev?.close());

test('site dev: 20 saves in a row, some < 100 ms apart, each show in the open page', async ({ page }) => {
  test.setTimeout(600_000);
  try {
    const lesson = lessons()[1] ?? lessons()[0]!;
    const dir = lessonDir(lesson, dev.course);
    await page.goto(`http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${lesson.title}`);
    await warmUp(page, path.join(dir, 'docs', 'notes.md'));
    const code = path.join(
      dir,
      readFileSync(path.join(dir, 'docs', 'readalong.md'), 'utf8').match(/file=([^\s]+)/)?.[1] ?? 'missing',
    );
    // The lesson's full listings are on its files page, open in a second tab: a code save shows there.
    const files = await page.context().newPage();
    await files.goto(`http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/files/`);
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
      await shows(files, `code save ${round}`);
      const newTitle = `${lesson.title} (rev ${round})`;
      retitle(dev.course, title, newTitle);
      title = newTitle;
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${newTitle}`, {
        timeout: SHOWS,
      });
      if (round % 2 === 1) {
        codelabgen(dev.course, ['state', 'block', lesson.id, '--reason', `decision ${round} needed`]);
        await shows(page, `Blocked: decision ${round} needed`);
      } else {
        codelabgen(dev.course, ['state', 'unblock', lesson.id]);
        await expect(page.locator('body')).not.toContainText('Blocked:', { timeout: SHOWS });
      }
      saves += 5;
    }
    expect(saves).toBe(20);
    // Every save is still there after a manual reload (none was served stale).
    await page.reload();
    for (let round = 1; round <= 4; round++) await shows(page, `Notes save ${round}`);
  } catch (error) {
    throw withOutput(error);
  }
});

/** Starts sampling the main column in the page (every animation frame, across in-place updates): its
 * height each frame, its text in each frame after the document changed (the same minimum). */
async function sampleMain(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { mainSamples?: { minText: number; minHeight: number; count: number } };
    const samples = (w.mainSamples = { minText: Infinity, minHeight: Infinity, count: 0 });
    // The text changes only with the document: it is measured in the first frame after each change
    // (the observer's callback, a microtask, runs before that frame's), not every frame (the whole
    // column's text made every frame was a quarter of the page's CPU in this test).
    let changed = true;
    new MutationObserver(() => (changed = true)).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
    });
    const sample = () => {
      const main = document.querySelector('main');
      if (changed) samples.minText = Math.min(samples.minText, main?.textContent?.trim().length ?? 0);
      changed = false;
      samples.minHeight = Math.min(samples.minHeight, main?.getBoundingClientRect().height ?? 0);
      samples.count++;
      requestAnimationFrame(sample);
    };
    sample();
  });
}

async function mainSamples(page: Page): Promise<{ minText: number; minHeight: number; count: number }> {
  return page.evaluate(
    () => (window as unknown as { mainSamples: { minText: number; minHeight: number; count: number } }).mainSamples,
  );
}

test('site dev: one save (in place or by rename) updates the open lesson in place: no reload, the main column never empty, one sync per save', async ({
  page,
}) => {
  test.setTimeout(600_000);
  try {
    const lesson = lessons()[1] ?? lessons()[0]!;
    const dir = lessonDir(lesson, dev.course);
    const notes = path.join(dir, 'docs', 'notes.md');
    await page.goto(`http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/`);
    await warmUp(page, notes);
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    page.on('framenavigated', (frame) => frame === page.mainFrame() && loads.push(`navigated ${frame.url()}`));
    await page.waitForTimeout(1_500); // the warm-up save's check
    await sampleMain(page);
    const before = await mainSamples(page);
    // A theme chosen in the menu: the swapped body's menus show it from the start, not their default.
    // The choice is made once the page's script has taken it (stored): on a loaded machine the script
    // that the warm-up's swap ran again can still be loading, and a choice before it runs is not kept,
    // as on any page before its script runs (it set the menu back to System, and save 1 showed that).
    await expect(async () => {
      await page.locator('.site-header .theme-select').selectOption('dark');
      expect(await page.evaluate(() => localStorage.getItem('codelabgen-theme'))).toBe('dark');
    }).toPass({ timeout: SHOWS });
    await page.evaluate(() => window.scrollTo(0, 600));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(500);
    const syncs = () =>
      dev
        .output()
        .split('\n')
        .filter((line) => line.includes('Syncing content')).length;
    const syncsBefore = syncs();
    for (let i = 1; i <= 10; i++) {
      const text = `Live save ${i}`;
      // The page as it first shows the text: a MutationObserver notes the theme menu's value then.
      await page.evaluate((t) => {
        const w = window as unknown as { shownAt?: number; menuShown?: string };
        delete w.shownAt;
        delete w.menuShown;
        const observer = new MutationObserver(() => {
          if (!document.querySelector('main')?.textContent?.includes(t)) return;
          w.shownAt = performance.now();
          w.menuShown = document.querySelector<HTMLSelectElement>('.site-header .theme-select')?.value;
          observer.disconnect();
        });
        observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
      }, text);
      if (i % 2 === 1) {
        appendFileSync(notes, `\n\n${text}.\n`);
      } else {
        // An editor's atomic save: a new file renamed over the old one.
        writeFileSync(`${notes}.tmp`, `${readFileSync(notes, 'utf8')}\n\n${text}.\n`);
        renameSync(`${notes}.tmp`, notes);
      }
      await expect(page.getByRole('main')).toContainText(text, { timeout: SHOWS });
      const shownAt = await page.evaluate(() => (window as unknown as { shownAt?: number }).shownAt);
      expect(shownAt, `save ${i}: seen by the observer`).toBeDefined();
      const menu = await page.evaluate(() => (window as unknown as { menuShown?: string }).menuShown);
      expect(
        menu,
        `save ${i}: the theme menu as the new page first shows it (loads: ${loads.join(', ') || 'none'})`,
      ).toBe('dark');
      // No reload after it either. The next save comes once the dev server has checked the course
      // after this one (pipeline/site/dev-watch.ts: a check reads the whole course and holds the
      // server meanwhile), as an author's saves would: each is a sync of its own.
      await page.waitForTimeout(1_500);
      expect(loads, `save ${i}: the page was reloaded`).toEqual([]);
    }
    // One sync per save (the watcher's events coalesced), give or take a few that a save split in two.
    expect(syncs() - syncsBefore, 'content syncs for 10 saves').toBeLessThanOrEqual(13);
    const after = await mainSamples(page);
    expect(await page.evaluate(() => window.scrollY), 'the reader stays where they were').toBe(scrolled);
    expect(after.count, 'the main column was sampled throughout').toBeGreaterThan(before.count + 50);
    expect(after.minText, 'the main column was never empty').toBeGreaterThan(1_000);
    expect(after.minHeight, 'the main column never collapsed').toBeGreaterThan(400);
    // The page's script still works on the swapped body (its listeners were moved, not doubled).
    // Once the last swap's copy has run (loading, on a loaded machine, it binds nothing yet): pressed again
    // until then, never while open. Two copies bound at once would open and shut it on every press.
    await expect(async () => {
      if (!(await page.getByRole('dialog').isVisible())) await page.keyboard.press('Control+k');
      await expect(page.getByRole('dialog')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: SHOWS });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  } catch (error) {
    throw withOutput(error);
  }
});

/** Drops Vite's full reloads on their way to the page (it learns of a save only by the server's word); what was dropped. */
async function dropFullReloads(page: Page): Promise<string[]> {
  const dropped: string[] = [];
  await page.routeWebSocket(
    (u) => u.port === String(dev.port),
    (ws) => {
      const server = ws.connectToServer();
      server.onMessage((message) => {
        if (String(message).includes('"full-reload"')) dropped.push(String(message));
        else ws.send(message);
      });
    },
  );
  return dropped;
}

/** The first lesson opened with Vite's full reloads dropped, and the page as the server renders it before a save. */
async function openWithoutReloads(page: Page) {
  const lesson = lessons()[0]!;
  const url = `http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/`;
  const notes = path.join(lessonDir(lesson, dev.course), 'docs', 'notes.md');
  const dropped = await dropFullReloads(page);
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${lesson.title}`);
  const before = await (await page.request.get(url)).text();
  return { url, notes, dropped, before };
}

test('site dev: a page that fetched itself before its sync was served fetches again until it shows the save', async ({
  page,
}) => {
  test.setTimeout(300_000);
  try {
    // The page hears of the save only as the server's word that the pages serve its sync: Vite's full
    // reloads (what Astro sends as it writes a sync) are dropped on the way, and the page's first fetch
    // of itself is answered with the page as it was before the save, as a fetch that came before the
    // sync was served is (the 20 saves above once left a page stale that way on a loaded machine).
    const { url, notes, dropped, before } = await openWithoutReloads(page);
    expect(before, 'the page says which sync it shows').toMatch(/data-dev-sync="\d+"/);
    let staleAnswers = 0;
    await page.route(url, (route) => {
      if (route.request().resourceType() !== 'fetch' || staleAnswers > 0) return route.continue();
      staleAnswers++;
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: before });
    });
    appendFileSync(notes, '\n\nServed-late save.\n');
    await expect(page.getByRole('main')).toContainText('Served-late save', { timeout: SHOWS });
    expect(dropped.length, "Vite's full reloads dropped (the page learnt of the save some other way)").toBeGreaterThan(
      0,
    );
    expect(staleAnswers, 'the page fetched itself and was answered with the page before the save').toBe(1);
  } catch (error) {
    throw withOutput(error);
  }
});

test('site dev: a page whose fetches keep showing an older sync than the one served has the server read its modules again', async ({
  page,
}) => {
  test.setTimeout(300_000);
  try {
    // The server said the pages serve the save's sync, but the page's fetches of itself keep showing the
    // one before (as a loaded machine once left the pages' store for good, the server's own check
    // notwithstanding): after STALE_ASK of them (site/components/DevLive.astro) the page tells the
    // server, which reads all its modules again; the page then shows the save, rendered by the reloaded
    // server. The stale answers are the page before the save, from here; Vite's full reloads are dropped.
    const { url, notes, before } = await openWithoutReloads(page);
    let staleAnswers = 0;
    await page.route(url, (route) => {
      if (route.request().resourceType() !== 'fetch' || staleAnswers >= 6) return route.continue();
      staleAnswers++;
      return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: before });
    });
    const told = () =>
      dev
        .output()
        .split('\n')
        .filter((line) => line.includes("reloading the server's modules"));
    const toldBefore = told().length;
    appendFileSync(notes, '\n\nStale-store save.\n');
    await expect(page.getByRole('main')).toContainText('Stale-store save', { timeout: SHOWS });
    expect(staleAnswers, 'the page fetched itself and was answered with the page before the save').toBe(6);
    expect(told().length - toldBefore, 'the server heard from the page once and read its modules again').toBe(1);
    expect(
      consoleLines.filter((line) => line.includes('[codelabgen]')),
      'the page neither gave up nor reloaded',
    ).toEqual([]);
  } catch (error) {
    throw withOutput(error);
  }
});

test("site dev: a swap waits for the last swap's page script: two saves while it loads leave it bound to the page once", async ({
  page,
}) => {
  test.setTimeout(300_000);
  try {
    // On a loaded machine the page script a swap made again (site/client/page.js, loaded by its src) was
    // still loading when the next save's swap came: afterwards Ctrl+K did not open the search dialog (a
    // loaded run of this spec, "one save ... in place"). Here the script is held until the second save
    // was served: the second swap waits for it, then each swap's copy runs once, in turn.
    const { url, notes } = await openWithoutReloads(page);
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    await page.route(/\/_codelabgen\/page\.js/, async (route) => {
      held++;
      await released;
      const response = await route.fetch();
      // Each copy that runs counts itself.
      const counted = `${await response.text()}\n;window.heldScriptRuns = (window.heldScriptRuns || 0) + 1;\n`;
      await route.fulfill({ response, body: counted });
    });
    const served = () =>
      dev
        .output()
        .split('\n')
        .filter((line) => line.includes('the pages serve sync')).length;
    appendFileSync(notes, '\n\nHeld-script save 1.\n');
    await expect(page.getByRole('main')).toContainText('Held-script save 1', { timeout: SHOWS });
    await expect.poll(() => held, { message: "the first swap's page script is held" }).toBe(1);
    const servedBefore = served();
    appendFileSync(notes, '\n\nHeld-script save 2.\n');
    await expect.poll(served, { timeout: SHOWS, message: 'the second save was served' }).toBeGreaterThan(servedBefore);
    // The page fetches itself for the second save meanwhile; it does not swap while the script loads.
    await page.waitForTimeout(2_000);
    await expect(page.getByRole('main'), "swapped while the last swap's script was loading").not.toContainText(
      'Held-script save 2',
    );
    release();
    await expect(page.getByRole('main')).toContainText('Held-script save 2', { timeout: SHOWS });
    await expect.poll(() => page.evaluate(() => Reflect.get(window, 'heldScriptRuns')), { timeout: SHOWS }).toBe(2);
    expect(held, 'one copy of the script per swap').toBe(2);
    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog'), 'Ctrl+K opens the search dialog').toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    expect(page.url(), 'no reload').toBe(url);
  } catch (error) {
    throw withOutput(error);
  }
});

test('site dev: a broken course file shows a red banner naming file and line until it is fixed, over the last good content', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  try {
    const lesson = lessons()[0]!;
    const dir = lessonDir(lesson, dev.course);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/`);
    await warmUp(page, path.join(dir, 'docs', 'notes.md'));
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(`${lesson.id} ${lesson.title}`);
    const banner = page.getByRole('alert').filter({ hasText: 'in the course: the page shows the last good version' });
    await expect(banner).toHaveCount(0);

    const broken: Array<{ file: string; damage: (text: string) => string; says: RegExp }> = [
      {
        file: path.join(dev.course, '.codelabgen', 'curriculum.yaml'),
        damage: (t) => `${t}  broken: [\n`,
        says: /error: \.codelabgen\/curriculum\.yaml: invalid YAML: .* \(\d+:\d+\)/,
      },
      {
        file: path.join(dev.course, '.codelabgen', 'config.yaml'),
        damage: (t) => `${t}site: [\n`,
        says: /error: \.codelabgen\/config\.yaml: invalid YAML: .* \(\d+:\d+\)/,
      },
      {
        file: path.join(dir, 'docs', 'notes.md'),
        damage: (t) => `---\ntitle: [\n---\n${t}`,
        says: new RegExp(
          `error: lesson ${lesson.id.replace('.', '\\.')} docs/notes\\.md:2: front matter: invalid YAML`,
        ),
      },
    ];
    for (const [n, { file, damage, says }] of broken.entries()) {
      const good = readFileSync(file, 'utf8');
      writeFileSync(file, damage(good));
      await expect(banner).toBeVisible({ timeout: SHOWS });
      await expect(banner).toContainText(says);
      // It stays (well past the dev server's checks), over the last good content, and the dev
      // server waits for the fix (no sync tried again and again meanwhile).
      const syncs = () =>
        dev
          .output()
          .split('\n')
          .filter((line) => line.includes('Syncing content')).length;
      const syncsBefore = syncs();
      await page.waitForTimeout(1_500);
      await expect(banner).toBeVisible();
      expect(syncs() - syncsBefore, 'content syncs while the file stays broken').toBeLessThanOrEqual(1);
      await expect(heading).toHaveText(`${lesson.id} ${lesson.title}`);
      expect(
        (await page.getByRole('main').textContent())?.trim().length ?? 0,
        'the last good content is still shown',
      ).toBeGreaterThan(1_000);
      // Red: white text on a red background, in both themes, with AA contrast.
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const [r, g, b] = await banner.evaluate((el) =>
          getComputedStyle(el).backgroundColor.match(/\d+/g)!.map(Number),
        );
        expect(r! - Math.max(g!, b!), `${theme}: the banner's background rgb(${r}, ${g}, ${b}) is red`).toBeGreaterThan(
          100,
        );
        // axe in the page itself (e2e/axe.ts), which looks into no frame: the page has none.
        await expect(page.locator('iframe')).toHaveCount(0);
        const violations = await axeViolations(page, { include: ['[data-dev-problems]'], rules: ['color-contrast'] });
        expect(
          violations.map((v) => `${theme}: ${v.id} (${v.nodes.map((node) => node.target.join(' ')).join(' | ')})`),
        ).toEqual([]);
        if (n === 0) {
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({
            path: path.join(testInfo.project.outputDir, 'screenshots', `dev-error-banner-${theme}-1280.png`),
          });
        }
      }
      writeFileSync(file, good);
      await expect(banner, 'the banner goes once the file is fixed').toHaveCount(0, { timeout: SHOWS });
    }
    expect(loads, 'the page was never reloaded').toEqual([]);
  } catch (error) {
    throw withOutput(error);
  }
});

test('site dev: /progress/ shows state set, state task start and state block as they happen, with no reload', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  try {
    const [reopened, moved] = [lessons()[0]!, lessons()[2] ?? lessons()[1]!];
    // Mid-generation: a lesson moved back reopens the finished course (phase lessons again).
    codelabgen(dev.course, ['state', 'set', reopened.id, 'notes', '--note', 'notes too thin', '--reopen']);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`http://localhost:${dev.port}/progress/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Progress');
    // Live once the stream is open: from then on a content reload of site dev leaves this page alone.
    await expect(page.locator('html')).toHaveAttribute('data-progress-live', 'on', { timeout: SHOWS });
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));
    await expect(page.locator('.pg-phase[aria-current="step"]')).toContainText('lessons');
    const column = (stage: string) => page.getByRole('region', { name: new RegExp(`^${stage} \\d+$`) });
    await expect(column('notes').locator(`[data-lesson="${reopened.id}"]`)).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 400));
    const scrolled = await page.evaluate(() => window.scrollY);

    codelabgen(dev.course, ['state', 'set', moved.id, 'readalong', '--note', 'example 2 unclear']);
    await expect(column('readalong').locator(`[data-lesson="${moved.id}"]`)).toBeVisible({ timeout: SHOWS });
    await expect(page.locator('.pg-feed li').first()).toContainText(
      `${moved.id} rework moved back done → readalong: example 2 unclear`,
    );

    codelabgen(dev.course, ['state', 'task', 'start', moved.id]);
    const card = page.locator(`.pg-card[data-lesson="${moved.id}"]`);
    await expect(card.locator('.pg-task')).toContainText('notes-writer', { timeout: SHOWS });
    await expect(page.getByRole('region', { name: /^Running tasks 1$/ })).toContainText(`lesson ${moved.id}`);

    codelabgen(dev.course, ['state', 'block', reopened.id, '--reason', 'the user picks the example']);
    const human = page.getByRole('region', { name: /^Needs a human/ });
    await expect(human).toContainText(`codelabgen state unblock ${reopened.id} --note "your decision"`, {
      timeout: SHOWS,
    });
    await expect(human).toContainText(`state_unblock {"id":"${reopened.id}","note":"your decision"}`);
    await expect(page.locator(`.pg-card[data-lesson="${reopened.id}"] .pg-flag-blocked`)).toHaveText('blocked (user)');

    expect(navigations, 'the page was never reloaded').toEqual([]);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    // axe in the page itself (e2e/axe.ts), which looks into no frame: the page has none.
    await expect(page.locator('iframe')).toHaveCount(0);
    const violations = await axeViolations(page, { options: { resultTypes: ['violations'] } });
    expect(
      violations.map(
        (v) =>
          `${v.id}: ${v.help} (${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(' | ')})`,
      ),
    ).toEqual([]);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      const themed = await axeViolations(page, { rules: ['color-contrast'] });
      expect(
        themed.map(
          (v) =>
            `${theme}: ${v.id} (${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(' | ')})`,
        ),
      ).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({
        path: path.join(testInfo.project.outputDir, 'screenshots', `progress-${theme}-1280.png`),
        fullPage: true,
      });
    }
  } catch (error) {
    throw withOutput(error);
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
    await expect
      .poll(dev.output, { timeout: SHOWS })
      .toMatch(
        new RegExp(
          `^error: lesson ${lesson.id.replace('.', '\\.')} docs/readalong\\.md:\\d+: code reference ` +
            `file=src/no-such-file\\.ts: no such file in the lesson folder$`,
          'm',
        ),
      );
    appendFileSync(path.join(dir, 'docs', 'notes.md'), '\n```mermaid\nflowchart LR\n  A -->\n```\n');
    await expect
      .poll(dev.output, { timeout: 30_000 })
      .toMatch(new RegExp(`^error: lesson ${lesson.id.replace('.', '\\.')} diagram docs/notes\\.md:\\d+ .*`, 'm'));
    const curriculum = path.join(dev.course, '.codelabgen', 'curriculum.yaml');
    appendFileSync(curriculum, '  broken: [\n');
    await expect
      .poll(dev.output, { timeout: SHOWS })
      .toMatch(/^error: \.codelabgen\/curriculum\.yaml: invalid YAML: /m);
    await expect(page.locator('body')).toContainText('error: .codelabgen/curriculum.yaml: invalid YAML', {
      timeout: 30_000,
    });
  } catch (error) {
    throw withOutput(error);
  }
});
