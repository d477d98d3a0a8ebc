// The six rows where a side-by-side with Starlight 0.42 found the lesson pages worse (issue 37), each
// measured in the browser: readalong code never wraps at laptop widths and is never narrower than the text
// column; a step's marked lines stay in view after a jump to a heading; search ranks title and heading
// matches first; the search dialog fills a phone's screen and one Escape closes it; "On this page" is one
// click away while reading the readalong; diagram controls never cover a label, drawings are never cut, and
// the full-size view is at least as large as the inline one and pans and zooms. Also: the files page has
// "On this page" and is in search.
// Rows 1-4 and 6 and the files page assert geometry only (sizes, wrapping, what is in view, search ranking,
// the dialogs' size and Escape, zoom and pan): they run in the dark theme only, since the dark theme
// changes no element's box on these pages and in these dialogs (theme-geometry.spec.ts), and dark applies
// every rule light does and its own. Row 5 also asserts a colour (the current entry looks different): it
// runs in both themes.
import type { Page } from '@playwright/test';
import { lessonUrl, lessons } from './course.ts';
import { expect, openPage, test } from './fixtures.ts';

const THEMES = ['light', 'dark'] as const;
/** The one theme of the geometry-only tests (the header): dark applies every rule light does, and its own. */
const GEOMETRY_THEME: (typeof THEMES)[number] = 'dark';
const first = () => lessons()[0]!;

/** The heights of every readalong code line, in px, and the widths of the code blocks shown. */
async function codeLines(page: Page): Promise<{ heights: number[]; blocks: number[]; column: number }> {
  return page.evaluate(() => {
    const heights = [...document.querySelectorAll('.ra-code .ec-line')].map((l) => l.getBoundingClientRect().height);
    const blocks = [...document.querySelectorAll('.ra-code')]
      .filter((c) => getComputedStyle(c).visibility !== 'hidden')
      .map((c) => c.getBoundingClientRect().width);
    return { heights, blocks, column: document.querySelector('.content')!.getBoundingClientRect().width };
  });
}

async function frames(page: Page, n = 3): Promise<void> {
  for (let i = 0; i < n; i++) await page.evaluate(() => new Promise(requestAnimationFrame));
}

for (const theme of [GEOMETRY_THEME]) {
  test(`row 1 (${theme}): at 1280, 1366 and 1920 px no readalong code line wraps and the code is as wide as the text column`, async ({
    page,
  }) => {
    for (const width of [1280, 1366, 1920]) {
      await openPage(page, lessonUrl(first()), width, theme);
      await frames(page);
      const { heights, blocks, column } = await codeLines(page);
      expect(heights.length, 'the readalong has code lines').toBeGreaterThan(20);
      const one = Math.min(...heights);
      const wrapped = heights.filter((h) => h > one * 1.4).length;
      expect(wrapped, `${width} px: code lines wrapped (of ${heights.length})`).toBe(0);
      expect(blocks.length, `${width} px: code shown`).toBeGreaterThan(0);
      for (const w of blocks)
        expect(w, `${width} px: a code block is not narrower than the text column`).toBeGreaterThanOrEqual(column - 1);
    }
  });

  test(`row 2 (${theme}): after a jump to any readalong heading the active step's marked lines are in view`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    // Each change of the readalong's layout while a page loads (ReadAlong.astro decides the width from an empty
    // grid, .ra-probe): the steps are never laid out as panels only to be measured and put back inline.
    await page.addInitScript(() => {
      const changes: string[] = [];
      Reflect.set(window, 'raLayouts', changes);
      new MutationObserver((records) => {
        for (const r of records) {
          const parsed = (r.target as Element).querySelector('.ra-step') !== null;
          changes.push(r.oldValue !== null ? 'inline' : parsed ? 'panels' : 'panels before the steps are parsed');
        }
      }).observe(document, { subtree: true, attributeFilter: ['data-enhanced'], attributeOldValue: true });
    });
    const layouts = () => page.evaluate(() => Reflect.get(window, 'raLayouts') as string[]);
    for (const lesson of lessons()) {
      // At 1280 px the steps are inline (the code follows its heading in the page): no step has a panel
      // to keep marked lines in view, so jumps there would check nothing. Should 1280 px ever get the
      // panel, this fails: then jump there too.
      await openPage(page, lessonUrl(lesson), 1280, theme);
      await expect(page.locator('[data-readalong]'), `${lesson.id}: a readalong`).toHaveCount(1);
      await expect(
        page.locator('[data-readalong]'),
        `${lesson.id} at 1280 px: the code inline, no panel (else row 2 must jump at 1280 px too)`,
      ).not.toHaveAttribute('data-enhanced');
      expect(await layouts(), `${lesson.id} at 1280 px: the steps never laid out as panels while loading`).toEqual([]);
      await openPage(page, lessonUrl(lesson), 1920, theme);
      expect(await layouts(), `${lesson.id} at 1920 px: panels once, from the start`).toEqual([
        'panels before the steps are parsed',
      ]);
      const ids = await page.locator('[data-readalong] :is(h2, h3)[id]').evaluateAll((hs) => hs.map((h) => h.id));
      for (const id of ids) {
        await page.evaluate((hash) => {
          location.hash = hash;
        }, `#${id}`);
        await frames(page);
        const seen = await page.evaluate(() => {
          const header = document.querySelector('.site-header')!.getBoundingClientRect().bottom;
          const step = document.querySelector('[data-readalong][data-enhanced] .ra-step[aria-current="step"]');
          if (!step) return null;
          const pre = step.querySelector('.ra-code pre')!.getBoundingClientRect();
          const panel = step.querySelector('.ra-code')!.getBoundingClientRect();
          const marks = [...step.querySelectorAll('.ra-code .ec-line.mark')].map((m) => m.getBoundingClientRect());
          const top = Math.max(header, pre.top);
          const bottom = Math.min(innerHeight, pre.bottom);
          return {
            panel: [Math.round(panel.top), Math.round(panel.bottom), Math.round(header), innerHeight],
            outside: marks.filter((m) => m.top < top - 1 || m.bottom > bottom + 1).length,
            marks: marks.length,
          };
        });
        const where = `${lesson.id} #${id} at 1920 px`;
        if (seen === null) throw new Error(`${where}: no step with a code panel is current`);
        expect(seen.panel[0], `${where}: panel top below the header ${seen.panel}`).toBeGreaterThanOrEqual(
          seen.panel[2]! - 1,
        );
        expect(seen.panel[1], `${where}: panel bottom on screen ${seen.panel}`).toBeLessThanOrEqual(seen.panel[3]! + 1);
        expect(seen.outside, `${where}: marked lines out of view (of ${seen.marks})`).toBe(0);
      }
    }
  });

  test(`row 3 (${theme}): search ranks the lesson titled with a word first, then headings, then prose`, async ({
    page,
  }) => {
    await openPage(page, lessonUrl(lessons()[3]!), 1280, theme);
    await page.keyboard.press('Control+k');
    await page.locator('#search-input').fill('backpressure');
    const results = page.locator('.search-results > li');
    await expect(results.first()).toBeVisible();
    const titled = lessons().find((l) => /backpressure/i.test(l.title))!;
    // The lesson, at its most specific place for the word (its path after the title).
    await expect(results.first().locator('strong')).toHaveText(new RegExp(`^${titled.id} ${titled.title}( › |$)`));
    expect(await results.first().locator('a').getAttribute('href')).toContain(`/lessons/${titled.id}-${titled.slug}/`);
    // A word in a heading but in no title: the heading's section comes first.
    await page.locator('#search-input').fill('paused');
    await expect(results.first().locator('a')).toHaveAttribute('href', /#consuming-paused-mode$/);
  });

  test(`row 4 (${theme}): the search dialog fills a phone's screen, one Escape closes it, Clear empties the field`, async ({
    page,
  }) => {
    await openPage(page, lessonUrl(first()), 390, theme);
    await page.getByRole('button', { name: 'Search' }).click();
    const dialog = page.locator('dialog.search-dialog');
    await expect(dialog).toBeVisible();
    const box = (await dialog.boundingBox())!;
    const screen = page.viewportSize()!;
    expect([box.x, box.y, box.width, box.height].map(Math.round), 'the dialog is the whole screen').toEqual([
      0,
      0,
      screen.width,
      screen.height,
    ]);
    await page.locator('#search-input').fill('stream');
    await expect(page.locator('.search-results > li').first()).toBeVisible();
    const listed = await page
      .locator('.search-results > li')
      .evaluateAll((lis) => lis.filter((li) => li.getBoundingClientRect().bottom <= innerHeight).length);
    expect(listed, 'results in view on the phone').toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.locator('#search-input')).toHaveValue('');
    await expect(page.locator('#search-input')).toBeFocused();
    await expect(dialog).toBeVisible();
    await page.locator('#search-input').fill('stream');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // The same at 1280 px: one Escape with text in the field.
    await openPage(page, lessonUrl(first()), 1280, theme);
    await page.keyboard.press('Control+k');
    await page.locator('#search-input').fill('stream');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test(`row 6 (${theme}): "Full size" covers no label, no drawing is cut, the full-size view is at least as large and pans and zooms`, async ({
    page,
  }) => {
    for (const width of [390, 1280]) {
      for (const lesson of [lessons()[0]!, lessons()[2]!]) {
        await openPage(page, lessonUrl(lesson), width, theme);
        const figures = page.locator('figure.diagram:has(.diagram-zoom)');
        const count = await figures.count();
        expect(count, `${lesson.id}: diagrams`).toBeGreaterThan(0);
        for (let i = 0; i < count; i++) {
          const figure = figures.nth(i);
          await figure.scrollIntoViewIfNeeded();
          const where = `${lesson.id} diagram ${i + 1} at ${width} px`;
          const geometry = await figure.evaluate((f) => {
            const svg = [...f.querySelectorAll('.diagram-svg svg')].find((s) => s.getBoundingClientRect().width > 0)!;
            const box = svg.closest('.diagram-svg')!.getBoundingClientRect();
            const button = f.querySelector('.diagram-zoom')!.getBoundingClientRect();
            const labels = [...svg.querySelectorAll('text, foreignObject div, foreignObject span')]
              .map((t) => t.getBoundingClientRect())
              .filter((r) => r.width > 0 && r.height > 0);
            const overlap = labels.filter(
              (r) => r.left < button.right && r.right > button.left && r.top < button.bottom && r.bottom > button.top,
            ).length;
            const cut = labels.filter((r) => r.left < box.left - 1 || r.right > box.right + 1).length;
            const page = document.documentElement.clientWidth;
            return {
              overlap,
              cut,
              labels: labels.length,
              inPage: box.left >= -1 && box.right <= page + 1,
              shown: svg.getBoundingClientRect().width,
            };
          });
          expect(geometry.labels, `${where}: labels drawn`).toBeGreaterThan(0);
          expect(geometry.overlap, `${where}: labels under "Full size"`).toBe(0);
          expect(geometry.cut, `${where}: labels cut at the figure's edge`).toBe(0);
          expect(geometry.inPage, `${where}: the figure inside the page`).toBe(true);
          await figure.getByRole('button', { name: /Full size/ }).click();
          const dialog = page.getByRole('dialog');
          await expect(dialog).toBeVisible();
          const body = dialog.getByRole('region');
          const full = await body.locator('svg').evaluate((s) => s.getBoundingClientRect().width);
          expect(full, `${where}: full size at least as large as inline`).toBeGreaterThanOrEqual(geometry.shown - 1);
          await dialog.getByRole('button', { name: 'Zoom in' }).click();
          const zoomed = await body.locator('svg').evaluate((s) => s.getBoundingClientRect().width);
          expect(zoomed, `${where}: zoom in`).toBeGreaterThan(full * 1.2);
          // Zoomed until it is wider than the dialog: then it pans.
          for (let k = 0; k < 8 && (await body.evaluate((b) => b.scrollWidth <= b.clientWidth)); k++)
            await dialog.getByRole('button', { name: 'Zoom in' }).click();
          const panned = await body.evaluate((b) => {
            b.scrollLeft = 60;
            return b.scrollLeft;
          });
          expect(panned, `${where}: pans once zoomed`).toBeGreaterThan(0);
          const most = await body.locator('svg').evaluate((s) => s.getBoundingClientRect().width);
          await dialog.getByRole('button', { name: 'Zoom out' }).click();
          const out = await body.locator('svg').evaluate((s) => s.getBoundingClientRect().width);
          expect(out, `${where}: zoom out`).toBeLessThan(most);
          await page.keyboard.press('Escape');
          await expect(dialog).toBeHidden();
        }
      }
    }
  });

  test(`files page (${theme}): "On this page" lists its files and search finds them`, async ({ page }) => {
    const lesson = first();
    await openPage(page, `${lessonUrl(lesson)}files/`, 1280, theme);
    const toc = page.locator('nav.toc');
    await expect(toc).toBeVisible();
    const entries = await toc.locator('a').evaluateAll((as) => as.map((a) => a.textContent));
    expect(entries).toContain('src/counter.mjs');
    await toc.getByRole('link', { name: 'src/counter.mjs' }).click();
    await expect(page.locator('#file-src-counter-mjs')).toBeInViewport();
    await page.keyboard.press('Control+k');
    await page.locator('#search-input').fill('counter.mjs');
    await expect(page.locator('.search-results a[href*="/files/"]').first()).toBeVisible();
  });
}

// Row 5 asserts a colour too (the marked entry looks different): in both themes.
for (const theme of THEMES) {
  test(`row 5 (${theme}): at 1280 px reading the readalong, every "On this page" entry is one click away and the current one is marked`, async ({
    page,
  }) => {
    await openPage(page, lessonUrl(first()), 1280, theme);
    for (const id of ['consuming-flowing-mode', 'what-the-tests-prove']) {
      // Where a link to it puts the heading: at the top, under the scroll padding.
      await page.locator(`#${id}`).evaluate((h) => h.scrollIntoView({ block: 'start' }));
      await frames(page);
      const state = await page.evaluate((current) => {
        const links = [...document.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')].filter((a) => {
          const r = a.getBoundingClientRect();
          if (r.width === 0 || r.bottom < 0 || r.top > innerHeight || getComputedStyle(a).visibility === 'hidden')
            return false;
          return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('a') === a;
        });
        const toc = links.filter((a) =>
          a.closest('nav')?.matches('[aria-labelledby="toc-title"], [aria-label="On this page"]'),
        );
        const marked = toc.filter((a) => a.getAttribute('aria-current') === 'true');
        const other = toc.find((a) => a.getAttribute('aria-current') !== 'true');
        return {
          clickable: toc.map((a) => a.hash.slice(1)),
          marked: marked.map((a) => a.hash.slice(1)),
          differs:
            marked.length === 1 &&
            other !== undefined &&
            getComputedStyle(marked[0]!).color !== getComputedStyle(other).color,
          entries: document.querySelectorAll('.toc a').length,
          current,
        };
      }, id);
      expect(state.clickable.length, `reading #${id}: entries clickable at once`).toBe(state.entries);
      expect(state.marked, `reading #${id}: the current section marked`).toEqual([id]);
      expect(state.differs, 'the marked entry looks different').toBe(true);
    }
  });
}
