// The dark theme changes colours, not layout: every rendered element of the pages below has the same box
// (rounded to 0.5 px) in light and dark, at 390 and 1920 px and, for lessons, 1280 px, with the readalong's
// code panel (data-enhanced), the build-time diagrams (one themed copy, or a light and a dark copy: lesson
// 2.2), a diagram's full-size dialog zoomed in and the search dialog with results. That is why the
// geometry-only tests run in one theme (reader-rows.spec.ts). Each page loads once: the theme is switched in
// place (the system scheme, as the theme menu's "System" follows it: site/client/page.js) and compared after
// two frames. The page's scripts that measure the layout (the readalong's, the dialogs') compute from these
// boxes, so equal boxes also mean a page loaded dark lays out as one loaded light. Not covered: client-side
// mermaid (drafts build), which draws once in the theme of the load (content.spec.ts loads it in each).
import type { Page } from '@playwright/test';
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, openPage, test } from './fixtures.ts';

type Theme = 'light' | 'dark';

async function frames(page: Page, n = 2): Promise<void> {
  for (let i = 0; i < n; i++) await page.evaluate(() => new Promise(requestAnimationFrame));
}

/**
 * Every rendered element of the body, keyed by its place among its rendered siblings (so that a diagram's
 * shown copy, light or dark, is compared with the other theme's), with its box rounded to 0.5 px: `save`
 * keeps them in the page, `compare` returns the elements whose box differs from the saved one (named), or
 * that exist in one theme only.
 */
function boxes(mode: 'save' | 'compare'): { count: number; differ: string[] } {
  const now = new Map<string, [string, Element]>();
  const round = (v: number) => Math.round(v * 2) / 2;
  const walk = (parent: Element, key: string) => {
    let k = 0;
    for (const el of parent.children) {
      if (el.getClientRects().length === 0 && getComputedStyle(el).display === 'none') continue;
      const at = `${key}/${k++}`;
      const r = el.getBoundingClientRect();
      now.set(at, [[r.x, r.y, r.width, r.height].map(round).join(','), el]);
      walk(el, at);
    }
  };
  walk(document.body, '');
  const store = window as unknown as { themeBoxes?: Map<string, [string, Element]> };
  if (mode === 'save') {
    store.themeBoxes = now;
    return { count: now.size, differ: [] };
  }
  const name = (el: Element | undefined) => {
    const parts: string[] = [];
    for (let e = el; e && e !== document.body && parts.length < 5; e = e.parentElement ?? undefined) {
      const cls =
        typeof e.className === 'string' && e.className.trim() ? `.${e.className.trim().split(/\s+/).join('.')}` : '';
      parts.unshift(`${e.localName}${e.id ? `#${e.id}` : ''}${cls}`);
    }
    return parts.join(' > ');
  };
  const before = store.themeBoxes!;
  const differ: string[] = [];
  for (const [key, [box, el]] of now) {
    const old = before.get(key);
    if (old === undefined) differ.push(`${name(el)}: only in the second theme, box ${box}`);
    else if (old[0] !== box) differ.push(`${name(el)}: box ${old[0]} → ${box}`);
  }
  for (const [key, [box, el]] of before)
    if (!now.has(key)) differ.push(`${name(el)}: only in the first theme, box ${box}`);
  return { count: now.size, differ };
}

test("the dark theme changes no element's box: lessons (readalong panel, diagrams, dialogs), course index, files, glossary at 390-1920 px", async ({
  page,
}) => {
  test.setTimeout(180_000);
  let theme: Theme = 'light';
  let compared = 0;
  /** Saves the boxes, switches to the other theme, waits two frames and compares. */
  const same = async (where: string) => {
    await frames(page);
    await page.evaluate(boxes, 'save' as const);
    const from = theme;
    theme = theme === 'light' ? 'dark' : 'light';
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await frames(page);
    const { count, differ } = await page.evaluate(boxes, 'compare' as const);
    expect(count, `${where}: elements measured`).toBeGreaterThan(50);
    expect(differ.slice(0, 20), `${where}: boxes that differ from ${from} to ${theme} (${differ.length})`).toEqual([]);
    compared++;
  };
  const resize = (width: number) => page.setViewportSize({ width, height: 900 });

  const first = lessons()[0]!;
  for (const lesson of [first, lessons().find((l) => l.id === '2.2')!]) {
    const at = (width: number) => `lesson ${lesson.id} at ${width} px`;
    await openPage(page, lessonUrl(lesson), 1920, theme);
    await expect(page.locator('figure.diagram .diagram-svg svg').first()).toBeVisible();
    await expect(page.locator('[data-readalong][data-enhanced] .ra-step[aria-current="step"]')).toHaveCount(1);
    await same(at(1920));
    await resize(1280);
    await expect(page.locator('[data-readalong]')).not.toHaveAttribute('data-enhanced');
    await same(at(1280));
    if (lesson === first) {
      // A diagram full size, zoomed in (reader-rows.spec.ts's row 6).
      await page
        .getByRole('button', { name: /^Full size/ })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Zoom in' }).click();
      await same(`${at(1280)}, a diagram full size zoomed in`);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
    await resize(390);
    await same(at(390));
    if (lesson === first) {
      // The search dialog with results on a phone (rows 3 and 4), once its list has stopped changing.
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('#search-input').fill('stream');
      await expect(page.locator('.search-results > li').first()).toBeVisible();
      await page.evaluate(
        () =>
          new Promise<void>((done) => {
            const observer = new MutationObserver(() => {
              clearTimeout(quiet);
              quiet = setTimeout(stop, 300);
            });
            const stop = () => {
              observer.disconnect();
              done();
            };
            let quiet = setTimeout(stop, 300);
            observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
          }),
      );
      await same(`${at(390)}, the search dialog with results`);
    }
  }
  for (const [name, url] of [
    ['the course index', siteUrl()],
    ["a lesson's files page", `${lessonUrl(first)}files/`],
    ['the glossary', `${siteUrl()}glossary/`],
  ] as const) {
    await openPage(page, url, 1920, theme);
    await same(`${name} at 1920 px`);
    await resize(390);
    await same(`${name} at 390 px`);
  }
  expect(compared).toBe(14);
});
