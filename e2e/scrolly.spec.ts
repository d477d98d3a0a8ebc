// Readalongs as scrollycoding (ReadAlong.astro): at 1920 px the active step's code is one pinned
// panel beside the prose and scrolling switches it; at 1280 px (where a panel would be narrower than
// the text: reader-rows.spec.ts), at 390 px, in print and without JS every step's code is an inline
// block after its heading; the "Inline code" toggle is remembered; screenshots.
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { lessonUrl, lessons } from './course.ts';
import { expect, test } from './fixtures.ts';
import { charactersPerFullLine } from './line-length.ts';

/** Where the code panel is at least as wide as the text column (ReadAlong.astro); at 1280 px the steps are inline. */
const DESKTOP = { width: 1920, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The example lesson whose readalong has several steps with marked lines. */
const lesson = () => lessons()[0]!;

/** Scrolls so that step `index`'s prose starts at 30% of the viewport (the script's line is at 40%). */
async function scrollToStep(page: Page, index: number): Promise<void> {
  await page
    .locator('.ra-step')
    .nth(index)
    .locator('.ra-text')
    .first()
    .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight * 0.3));
}

/** Every step's code block is in the page flow, between its heading and its prose, as wide as the text. */
async function expectInline(page: Page): Promise<void> {
  const steps = page.locator('.ra-step');
  const count = await steps.count();
  expect(count, 'the example readalong has several steps').toBeGreaterThan(3);
  for (let i = 0; i < count; i++) {
    const step = steps.nth(i);
    const code = await step.locator('.ra-code').boundingBox();
    const text = await step.locator('.ra-text').last().boundingBox();
    const lead = step.locator('.ra-lead');
    expect(code && text, `step ${i + 1} is laid out`).toBeTruthy();
    expect(Math.round(code!.y + code!.height), `step ${i + 1}: code before its prose`).toBeLessThanOrEqual(
      Math.round(text!.y) + 1,
    );
    expect(Math.abs(code!.x - text!.x), `step ${i + 1}: code in the text column`).toBeLessThanOrEqual(1);
    if ((await lead.count()) > 0)
      expect((await lead.boundingBox())!.y, `step ${i + 1}: heading before its code`).toBeLessThan(code!.y);
    await expect(step.locator('.ra-code .expressive-code')).toBeVisible();
    expect(await step.locator('.ra-code').evaluate((el) => getComputedStyle(el).position)).toBe('static');
  }
  await expect(page.locator('.ra-step[aria-current]')).toHaveCount(0);
}

/** The one visible (active) code panel. */
async function activePanel(page: Page): Promise<Locator> {
  const visible = page.locator('.ra-code').filter({ visible: true });
  await expect(visible).toHaveCount(1);
  return visible;
}

test('at 1920 px one pinned panel shows the active step; scrolling to step 2 switches it and shows its marked lines', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(lessonUrl(lesson()));
  await expect(page.locator('[data-readalong]')).toHaveAttribute('data-enhanced', '');
  const steps = page.locator('.ra-step');

  await scrollToStep(page, 0);
  await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
  // Into the step's prose: the readalong's top has gone under the header, the panel stays below it.
  await page
    .locator('[data-readalong]')
    .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY + 200));
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
  const first = await activePanel(page);
  await expect(first.locator('figcaption .title')).toHaveText('src/counter.mjs');
  const prose = await steps.nth(0).locator('.ra-text').last().boundingBox();
  const panel = await first.boundingBox();
  expect(panel!.x, 'the panel sits beside the prose').toBeGreaterThan(prose!.x + prose!.width);
  const header = (await page.getByRole('banner').boundingBox())!;
  expect(
    Math.round(panel!.y),
    'pinned under the header (and where the "On this page" bar goes on narrower screens)',
  ).toBe(Math.round(header.y + header.height + 44 + 16));

  // Pinned: scrolling within the step leaves the panel where it is.
  await page.mouse.wheel(0, 150);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
  expect(Math.round((await first.boundingBox())!.y)).toBe(Math.round(panel!.y));

  await scrollToStep(page, 1);
  await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');
  await expect(steps.nth(0)).not.toHaveAttribute('aria-current');
  const second = await activePanel(page);
  expect(Math.round((await second.boundingBox())!.y), 'the new panel is in the same place').toBe(Math.round(panel!.y));
  await expect(second.locator('.ln').first()).toHaveText('16');
  const marks = second.locator('.ec-line.mark');
  await expect(marks).not.toHaveCount(0);
  await expect(marks.first()).toBeInViewport({ ratio: 1 });
  await expect(
    steps.nth(0).locator('.ra-code button'),
    'an inactive panel is hidden, out of the tab order',
  ).toBeHidden();

  // A long step's marked lines are scrolled into the panel's view.
  await scrollToStep(page, 4);
  const long = await activePanel(page);
  await expect(long.locator('.ec-line.mark').last()).toBeInViewport({ ratio: 1 });

  // Keyboard: Tab reaches the active panel only, with a visible focus ring.
  await page.getByRole('button', { name: 'Inline code' }).focus();
  const visits: string[] = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    visits.push(
      await page.evaluate(() => {
        const el = document.activeElement!;
        const step = el.closest('.ra-step');
        if (!step) return 'outside';
        const outline = getComputedStyle(el).outlineStyle !== 'none' ? 'ring' : 'no ring';
        return (
          `${el.closest('.ra-code') ? 'panel' : 'prose'} of ` +
          `${step.getAttribute('aria-current') === 'step' ? 'the active' : 'an inactive'} step, ${outline}`
        );
      }),
    );
  }
  expect(visits.filter((v) => v.startsWith('panel')).length, visits.join('; ')).toBeGreaterThan(0);
  // Focus moving into a step's prose (a heading link) selects that step first.
  for (const visit of visits.filter((v) => v !== 'outside'))
    expect(visit, visits.join('; ')).toMatch(/^(panel|prose) of the active step, ring$/);

  // Clicking a step, or moving focus into it, selects it.
  await steps
    .nth(5)
    .locator('.ra-text')
    .last()
    .click({ position: { x: 5, y: 5 } });
  await expect(steps.nth(5)).toHaveAttribute('aria-current', 'step');
});

test('at 1920 px the readalong keeps "On this page" in view, 60 characters a line, and its panel ends with the last step', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(lessonUrl(lesson()));
  await expect(page.locator('[data-readalong]')).toHaveAttribute('data-enhanced', '');
  const steps = page.locator('.ra-step');
  const heading = (await steps.nth(2).locator('h2, h3').first().textContent())!.trim();
  // Into the readalong: the table of contents keeps its own column right of the code panel, one click from any section.
  await scrollToStep(page, 0);
  await expect(steps.nth(0)).toHaveAttribute('aria-current', 'step');
  const toc = page.locator('nav.toc');
  await expect(toc).toBeInViewport();
  const link = toc.getByRole('link', { name: heading, exact: true });
  await expect(link).toBeInViewport();
  const panelBox = (await (await activePanel(page)).boundingBox())!;
  expect((await toc.boundingBox())!.x, 'the list right of the panel').toBeGreaterThanOrEqual(
    panelBox.x + panelBox.width,
  );
  await link.click();
  await expect(steps.nth(2)).toHaveAttribute('aria-current', 'step');
  await expect(link, 'marking the section being read').toHaveAttribute('aria-current', 'true');
  const headerBox = (await page.getByRole('banner').boundingBox())!;
  const headingBox = (await steps.nth(2).locator('h2, h3').first().boundingBox())!;
  expect(headingBox.y, 'the heading is not under the header').toBeGreaterThanOrEqual(headerBox.y + headerBox.height);

  // Scrolled, not jumped: the list marks the active step's section.
  await scrollToStep(page, 0);
  await expect(link).not.toHaveAttribute('aria-current', 'true');
  await scrollToStep(page, 2);
  await expect(steps.nth(2)).toHaveAttribute('aria-current', 'step');
  await expect(link).toHaveAttribute('aria-current', 'true');

  const perLine = await charactersPerFullLine(page.locator('[data-readalong]'), '.ra-text p');
  expect(perLine.length, 'the steps have paragraphs of several lines').toBeGreaterThan(10);
  const mean = perLine.reduce((a, b) => a + b, 0) / perLine.length;
  expect(mean, `characters a line: ${perLine.join(', ')}`).toBeGreaterThanOrEqual(60);

  // The end: the last step is active and its panel leaves with it: no blank gap after the steps.
  const last = steps.last();
  await last
    .locator('.ra-text')
    .last()
    .evaluate((el) =>
      window.scrollTo(0, el.getBoundingClientRect().bottom + window.scrollY - window.innerHeight * 0.5),
    );
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await expect(last).toHaveAttribute('aria-current', 'step');
  const end = (await page.locator('[data-readalong]').boundingBox())!;
  const lastPanel = (await last.locator('.ra-code').boundingBox())!;
  expect(Math.round(lastPanel.y + lastPanel.height), 'the panel ends with the last step').toBeLessThanOrEqual(
    Math.round(end.y + end.height) + 1,
  );
  const proseEnd = (await last.locator('.ra-text').last().boundingBox())!;
  expect(
    Math.round(end.y + end.height - (proseEnd.y + proseEnd.height)),
    "nothing after the last step's prose",
  ).toBeLessThanOrEqual(1);
  // The room kept after it is only what a step's panel lacks between its heading and the end (--ra-tail).
  const tail = await page
    .locator('[data-readalong]')
    .evaluate((ra) => parseFloat(getComputedStyle(ra).getPropertyValue('--ra-tail')));
  expect(tail, 'the room after the last step').toBeLessThan(await page.evaluate(() => innerHeight));
  const next = (await page.locator('#notes').boundingBox())!;
  expect(next.y - (end.y + end.height), 'the notes follow the steps').toBeLessThan(120);
});

test('the "Inline code" toggle switches to inline blocks and is remembered', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(lessonUrl(lesson()));
  const toggle = page.getByRole('button', { name: 'Inline code' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('[data-readalong]')).not.toHaveAttribute('data-enhanced');
  await expectInline(page);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Inline code' })).toHaveAttribute('aria-pressed', 'true');
  await expectInline(page);
  await page.getByRole('button', { name: 'Inline code' }).click();
  await expect(page.locator('[data-readalong]')).toHaveAttribute('data-enhanced', '');
});

test('at 390 px every step shows its code inline, with no toggle', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(lessonUrl(lesson()));
  await expect(page.locator('[data-readalong]')).not.toHaveAttribute('data-enhanced');
  await expect(page.getByRole('button', { name: 'Inline code' })).toBeHidden();
  await expectInline(page);
});

test('in print the readalong is linear', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(lessonUrl(lesson()));
  await expect(page.locator('[data-readalong]')).toHaveAttribute('data-enhanced', '');
  await page.emulateMedia({ media: 'print' });
  await expectInline(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('every step shows its code inline with its marked lines', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(lessonUrl(lesson()));
    await expectInline(page);
    await expect(page.locator('.ra-step').nth(1).locator('.ec-line.mark')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Inline code' })).toBeHidden();
  });
});

test('screenshots: a scrollycoding step at 1920 px, the same lesson at 1280 px (inline) and at 390 px', async ({
  page,
}, testInfo) => {
  const dir = path.join(testInfo.project.outputDir, 'screenshots');
  const save = async (name: string) => {
    const png = await page.screenshot({ path: path.join(dir, `${name}.png`) });
    expect(png.length).toBeGreaterThan(5_000);
    await testInfo.attach(name, { body: png, contentType: 'image/png' });
  };
  await page.emulateMedia({ reducedMotion: 'reduce' }); // no fade caught half-way in the picture
  await page.setViewportSize(DESKTOP);
  await page.goto(lessonUrl(lesson()), { waitUntil: 'networkidle' });
  await scrollToStep(page, 2);
  await expect(page.locator('.ra-step').nth(2)).toHaveAttribute('aria-current', 'step');
  await save('scrolly-step-1920');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(lessonUrl(lesson()), { waitUntil: 'networkidle' });
  await page
    .locator('.ra-step')
    .nth(2)
    .locator('.ra-lead')
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await save('scrolly-step-1280');
  await page.setViewportSize(PHONE);
  await page.goto(lessonUrl(lesson()), { waitUntil: 'networkidle' });
  await page.locator('.ra-step').nth(2).locator('.ra-lead').scrollIntoViewIfNeeded();
  await save('scrolly-step-390');
});
