// A lesson's right-hand area on wide screens (site.css, page.js): the whole "On this page" list as a
// column wherever the readalong's code panel is not beside it (top, notes, files), the bar under the
// header while the panel is, with nothing in the text moving when they swap; a diagram wider than the
// text takes that area instead of scrolling, and one that still scrolls says so (a fade at the edge
// with more to see, a named keyboard region). From 1600 px the list keeps a column of its own beside
// the panel. Phones keep the bar.
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

test('at 1280 px "On this page" is a column beside the text, the bar only while the code panel is there, and the text never moves', async ({
  page,
}) => {
  await open(page, lessonUrl(lesson()), 1280, 'light');
  await expect(page.locator('[data-readalong]')).toHaveAttribute('data-enhanced', '');
  const places = await headingPlaces(page);
  const text = (await page.getByRole('heading', { level: 1 }).boundingBox())!;

  // The top of the page: the whole list in a column right of the text, "Objectives" marked.
  const column = await expectWholeList(page, 'the whole list at the top of the page');
  expect(column.x, 'right of the text').toBeGreaterThanOrEqual(text.x + text.width);
  await expect(toc(page).locator('a[aria-current="true"]')).toHaveText('Objectives');
  // Sticky: a screen further down it is still where it was.
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect.poll(async () => Math.round((await toc(page).boundingBox())!.y)).toBe(Math.round(column.y));

  // Reading a step: the code panel takes that area; the list is one click away in the bar under the header.
  const step = page.locator('.ra-step').nth(2);
  await step
    .locator('.ra-text')
    .first()
    .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight * 0.3));
  await expect(step).toHaveAttribute('aria-current', 'step');
  const panel = (await step.locator('.ra-code').boundingBox())!;
  expect(panel.x + panel.width, 'the panel is where the column was').toBeGreaterThan(column.x);
  const bar = toc(page);
  await expect(bar, 'one "On this page": the bar').toHaveCount(1);
  const barBox = (await bar.boundingBox())!;
  const header = (await page.getByRole('banner').boundingBox())!;
  expect(barBox.height, 'a one-line bar').toBeLessThan(60);
  expect(Math.round(barBox.y), 'under the header').toBe(Math.round(header.y + header.height));
  expect(barBox.y + barBox.height, 'above the panel').toBeLessThanOrEqual(panel.y);
  await expect(bar.getByRole('link').first(), 'closed').toBeHidden();
  expect(await headingPlaces(page), 'the bar came without moving any heading in the page').toEqual(places);
  const stepHeading = (await step.locator('h2, h3').first().textContent())!.trim();
  await expect(bar.locator('summary')).toContainText(stepHeading);
  await bar.locator('summary').click();
  await expect(bar.getByRole('link', { name: stepHeading, exact: true })).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('Escape');

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

test('at 1600 px the whole "On this page" list stays beside the code panel while reading', async ({ page }) => {
  await open(page, lessonUrl(lesson()), 1600, 'light');
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
  expect(panel.width, 'a panel no narrower than at 1280 px (360 px)').toBeGreaterThanOrEqual(360);
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

test('at 390 px a diagram that scrolls sideways is a named keyboard region, faded at the edge with more to see', async ({
  page,
}) => {
  await open(page, lessonUrl(lesson()), 390, 'light');
  const region = page.getByRole('region', { name: /\(scrolls sideways\)$/ }).first();
  await region.scrollIntoViewIfNeeded();
  // The drawing's opacity at each edge, as its mask draws it (1: no fade).
  const fade = (side: 'left' | 'right') =>
    region.evaluate((el, side) => {
      const mask = getComputedStyle(el).maskImage;
      if (!mask || mask === 'none') return 1;
      const alphas = [...mask.matchAll(/rgba?\(([^)]+)\)/g)].map((m) => {
        const c = m[1]!
          .split(/[\s,/]+/)
          .filter(Boolean)
          .map(Number);
        return c.length > 3 ? c[3]! : 1;
      });
      const [first, last] = [alphas[0]!, alphas[alphas.length - 1]!];
      return /to left|270deg/.test(mask) === (side === 'left') ? last : first;
    }, side);
  await expect(region).toHaveAttribute('tabindex', '0');
  expect(await fade('right'), 'more to the right: that edge fades').toBeLessThan(0.5);
  expect(await fade('left'), 'nothing to the left: no fade').toBe(1);
  // The keyboard scrolls it; at the far end the fade moves to the other edge.
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect.poll(() => fade('right')).toBe(1);
  expect(await fade('left')).toBeLessThan(0.5);
});
