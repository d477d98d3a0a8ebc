// A lesson's right-hand area on wide screens (site.css, page.js): the whole "On this page" list as a
// column (at 1280 px the readalong's code is inline: a panel would be narrower than the text), with
// nothing in the text moving; a diagram wider than the text takes that area instead of scrolling (the
// list gives way to the bar meanwhile). Where the panel is (1920 px) the list keeps a column of its own
// beside it. Phones keep the bar; their diagrams fit the screen whole, "Full size" shows 14 px labels.
import type { Locator, Page } from '@playwright/test';
import { lessonUrl, lessons } from './course.ts';
import { expect, openPage as open, test } from './fixtures.ts';
import { charactersPerFullLine } from './line-length.ts';

/** The example lesson: a readalong with steps, notes with a flowchart wider than the text. */
const lesson = () => lessons()[0]!;

function toc(page: Page): Locator {
  return page.getByRole('navigation', { name: 'On this page' });
}

/** Where each h2/h3 of the article is in the document (not the viewport), and its left edge. */
async function headingPlaces(page: Page): Promise<string[]> {
  return page.locator('article :is(h2, h3)').evaluateAll((hs) =>
    hs.map((h) => {
      const r = h.getBoundingClientRect();
      return `${h.id} ${Math.round(r.top + window.scrollY)} ${Math.round(r.left)}`;
    }),
  );
}

/** Every link of the table of contents is on screen; returns the nav's box. */
async function expectWholeList(
  page: Page,
  why: string,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const nav = toc(page);
  await expect(nav, why).toHaveCount(1);
  const links = nav.getByRole('link');
  expect(await links.count(), 'the lesson has a long list').toBeGreaterThan(10);
  for (const link of await links.all()) await expect(link, why).toBeInViewport({ ratio: 1 });
  return (await nav.boundingBox())!;
}

test('at 1280 px "On this page" is a column beside the text all along, the readalong\'s code inline, and the text never moves', async ({
  page,
}) => {
  await open(page, lessonUrl(lesson()), 1280, 'light');
  // The code panel would be narrower than the text column here: the steps stay inline (ReadAlong.astro).
  await expect(page.locator('[data-readalong]')).not.toHaveAttribute('data-enhanced');
  const places = await headingPlaces(page);
  const text = (await page.getByRole('heading', { level: 1 }).boundingBox())!;

  // The top of the page: the whole list in a column right of the text, "Objectives" marked.
  const column = await expectWholeList(page, 'the whole list at the top of the page');
  expect(column.x, 'right of the text').toBeGreaterThanOrEqual(text.x + text.width);
  await expect(toc(page).locator('a[aria-current="true"]')).toHaveText('Objectives');
  // Sticky: a screen further down it is still where it was.
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect.poll(async () => Math.round((await toc(page).boundingBox())!.y)).toBe(Math.round(column.y));

  // Reading a step (its heading at the top, where a link puts it): the whole list stays beside it, the step's section marked.
  const step = page.locator('.ra-step').nth(2);
  await step
    .locator('h2, h3')
    .first()
    .evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const reading = await expectWholeList(page, 'the whole list while reading a step');
  expect(Math.round(reading.x)).toBe(Math.round(column.x));
  const code = (await step.locator('.ra-code').boundingBox())!;
  expect(code.x + code.width, 'the code in the text column').toBeLessThanOrEqual(column.x);
  const stepHeading = (await step.locator('h2, h3').first().textContent())!.trim();
  await expect(toc(page).locator('a[aria-current="true"]')).toHaveText(stepHeading);
  expect(await headingPlaces(page), 'no heading moved').toEqual(places);

  // The notes: the panel has left with the last step, the whole list is back, marking the section read.
  await page.locator('#notes').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const again = await expectWholeList(page, 'the whole list in the notes');
  expect(Math.round(again.x)).toBe(Math.round(column.x));
  await expect(toc(page).locator('a[aria-current="true"]'), 'the notes or their first section').toHaveText(
    /^(Notes|Concepts)/,
  );

  // The files at the end: the column too.
  await page.locator('#code').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await expectWholeList(page, 'the whole list at the files');
  await expect(toc(page).locator('a[aria-current="true"]')).toHaveText('Files');

  // Back to the column: every heading is still where it was in the page.
  expect(await headingPlaces(page)).toEqual(places);
  // The notes' prose keeps 60 characters a line or more (the median: a line cut short by a long code span is not the measure).
  const perLine = await charactersPerFullLine(page.locator('section:has(> .heading-wrap #notes) .doc'), 'p, li');
  expect(perLine.length, 'the notes have paragraphs of several lines').toBeGreaterThan(10);
  const median = [...perLine].sort((a, b) => a - b)[Math.floor(perLine.length / 2)]!;
  expect(median, `characters a line: ${perLine.join(', ')}`).toBeGreaterThanOrEqual(60);
});

test('at 1920 px the whole "On this page" list stays beside the code panel while reading', async ({ page }) => {
  await open(page, lessonUrl(lesson()), 1920, 'light');
  await expect(page.locator('[data-readalong]')).toHaveAttribute('data-enhanced', '');
  const step = page.locator('.ra-step').nth(2);
  await step
    .locator('.ra-text')
    .first()
    .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight * 0.3));
  await expect(step).toHaveAttribute('aria-current', 'step');
  const list = await expectWholeList(page, 'the whole list beside the panel');
  const heading = (await step.locator('h2, h3').first().textContent())!.trim();
  await expect(toc(page).locator('a[aria-current="true"]')).toHaveText(heading);
  const panel = (await step.locator('.ra-code').boundingBox())!;
  const prose = (await step.locator('.ra-text').last().boundingBox())!;
  expect(panel.x, 'the panel right of the prose').toBeGreaterThanOrEqual(prose.x + prose.width);
  expect(list.x, 'the list right of the panel').toBeGreaterThanOrEqual(panel.x + panel.width);
  const column = (await page.locator('.content').boundingBox())!;
  expect(panel.width, 'a panel no narrower than the text column').toBeGreaterThanOrEqual(column.width - 1);
});

test('at 390 px "On this page" stays a bar under the header', async ({ page }) => {
  await open(page, lessonUrl(lesson()), 390, 'light');
  const bar = toc(page);
  await expect(bar).toHaveCount(1);
  expect((await bar.boundingBox())!.height).toBeLessThan(60);
  await expect(bar.getByRole('link').first()).toBeHidden();
  await page.locator('#notes').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await expect(bar).toBeInViewport();
  await expect(bar.getByRole('link').first()).toBeHidden();
});

/** The drawn diagrams of the page: their figure, drawing box, what shows of it and its labels' size. */
async function diagramBoxes(page: Page) {
  return page.locator('figure.diagram').evaluateAll((figs) =>
    figs.flatMap((f) => {
      const box = [...f.querySelectorAll<HTMLElement>('.diagram-svg')].find((s) => s.offsetParent !== null);
      const svg = box?.querySelector('svg');
      if (!box || !svg) return [];
      const r = f.getBoundingClientRect();
      return [
        {
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
          scrolls: box.scrollWidth > box.clientWidth + 1,
          label: (16 * svg.getBoundingClientRect().width) / svg.viewBox.baseVal.width,
        },
      ];
    }),
  );
}

test('at 1280 px a diagram wider than the text uses the free area beside it instead of scrolling; the list gives way meanwhile', async ({
  page,
}) => {
  await open(page, lessonUrl(lesson()), 1280, 'light');
  const text = (await page.locator('.heading-wrap:has(#notes)').boundingBox())!;
  const main = (await page.getByRole('main').boundingBox())!;
  const diagrams = await diagramBoxes(page);
  expect(diagrams.length).toBeGreaterThan(0);
  const wide = diagrams.filter((d) => d.right > text.x + text.width + 1);
  expect(wide.length, 'the example has a diagram wider than the text').toBeGreaterThan(0);
  for (const d of diagrams) {
    expect(d.scrolls, 'every diagram fits without scrolling sideways').toBe(false);
    expect(d.label, 'labels at 14 px or more').toBeGreaterThanOrEqual(14 - 0.05);
    expect(d.right, 'inside the page').toBeLessThanOrEqual(main.x + main.width);
  }
  // In view beside where the list would be: the list is the bar; no visible "On this page" overlaps the drawing.
  const figure = page
    .locator('figure.diagram')
    .filter({ has: page.getByRole('button', { name: /^Full size/ }) })
    .first();
  await figure.evaluate((f) => f.scrollIntoView({ block: 'center' }));
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const box = (await figure.boundingBox())!;
  expect(box.x + box.width).toBeGreaterThan(text.x + text.width + 1);
  const nav = (await toc(page).boundingBox())!;
  const overlaps =
    nav.x < box.x + box.width && nav.x + nav.width > box.x && nav.y < box.y + box.height && nav.y + nav.height > box.y;
  expect(overlaps, 'the list does not cover the drawing').toBe(false);
  expect(nav.height, 'the bar').toBeLessThan(60);
});

test('at 390 px every diagram is whole in its box (none scrolls sideways); "Full size" shows its labels at 14 px or more', async ({
  page,
}) => {
  await open(page, lessonUrl(lesson()), 390, 'light');
  const diagrams = await diagramBoxes(page);
  expect(diagrams.length).toBeGreaterThan(0);
  for (const d of diagrams) {
    expect(d.scrolls, 'no diagram scrolls sideways').toBe(false);
    expect(d.right, 'inside the page').toBeLessThanOrEqual(390);
  }
  const figure = page.locator('figure.diagram').filter({ has: page.getByRole('button', { name: /^Full size/ }) });
  for (const f of await figure.all()) {
    await f.getByRole('button', { name: /^Full size/ }).click();
    const label = await page
      .getByRole('dialog')
      .locator('svg')
      .evaluate((svg) => (16 * svg.getBoundingClientRect().width) / (svg as SVGSVGElement).viewBox.baseVal.width);
    expect(label, 'labels at 14 px or more in the full-size view').toBeGreaterThanOrEqual(14 - 0.05);
    await page.keyboard.press('Escape');
  }
});
