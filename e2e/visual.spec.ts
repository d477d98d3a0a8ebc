// Visual quality of the learner's site: readable line length, code and diagrams as wide as the text
// column, no sideways scrolling at 390 and 1280 px, the lesson JS budget, and screenshots to look at
// (axe on every page type: a11y.spec.ts).
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, openPage as open, test } from './fixtures.ts';

const WIDTHS = [390, 1280] as const;
const THEMES = ['light', 'dark'] as const;

test('lesson pages: readable line length, code and diagrams as wide as the text, no sideways scroll', async ({ page }) => {
  for (const width of WIDTHS) {
    await open(page, lessonUrl(lessons()[0]!), width, 'light');
    const m = await page.evaluate(() => {
      // Characters per line of the longest paragraph: its length over its number of lines.
      const para = [...document.querySelectorAll('article .doc p')].sort((a, b) => (b.textContent?.length ?? 0) - (a.textContent?.length ?? 0))[0]!;
      const style = getComputedStyle(para);
      const lines = Math.round(para.getBoundingClientRect().height / parseFloat(style.lineHeight));
      const column = para.getBoundingClientRect().width;
      const widths = (sel: string) => [...document.querySelectorAll(sel)].map((e) => Math.round(e.getBoundingClientRect().width));
      return { chars: (para.textContent?.length ?? 0) / Math.max(1, lines - 1), font: parseFloat(style.fontSize), column: Math.round(column), code: widths('article .doc .expressive-code'), diagrams: widths('article figure.diagram'), overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth };
    });
    expect(m.overflow, `${width}px: no sideways scroll`).toBe(0);
    expect(m.chars, `${width}px: at most about 85 characters a line`).toBeLessThanOrEqual(85);
    test.info().annotations.push({ type: `characters per line at ${width}px`, description: m.chars.toFixed(0) });
    expect(m.font).toBeGreaterThanOrEqual(16);
    for (const w of [...m.code, ...m.diagrams]) expect(Math.abs(w - m.column), `${width}px: code and diagram blocks span the text column (${m.column}px)`).toBeLessThanOrEqual(1);
  }
});

test('lesson pages with build-time diagrams load at most 15 KB of JavaScript (gzip): no mermaid, no search before it opens', async ({ page }) => {
  const external: Buffer[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script') external.push(await r.body());
  });
  let measured = 0;
  for (const lesson of lessons()) {
    external.length = 0;
    await open(page, lessonUrl(lesson), 1280, 'light');
    const inline = await page.locator('script:not([src])').allTextContents();
    const bytes = [...external, ...inline.map((t) => Buffer.from(t))].reduce((sum, b) => sum + gzipSync(b).length, 0);
    test.info().annotations.push({ type: `lesson ${lesson.id} JS (gzip bytes)`, description: String(bytes) });
    expect(bytes, `lesson ${lesson.id}`).toBeLessThanOrEqual(15 * 1024);
    expect(external.filter((b) => /pagefind|mermaid/.test(b.toString('utf8', 0, 4000))), 'no pagefind or mermaid before search opens').toEqual([]);
    measured++;
  }
  expect(measured).toBe(lessons().length);
});

test('screenshots: home, lesson top, diagram, TOC, search dialog, mobile menu, in both themes', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const dir = path.join(testInfo.project.outputDir, 'screenshots');
  const save = async (name: string, target: Page | ReturnType<Page['locator']> = page) => {
    const png = await target.screenshot({ path: path.join(dir, `${name}.png`) });
    expect(png.length).toBeGreaterThan(5_000);
    await testInfo.attach(name, { body: png, contentType: 'image/png' });
  };
  const lesson = lessonUrl(lessons()[0]!);
  for (const theme of THEMES) {
    await open(page, siteUrl(), 1280, theme);
    await save(`learner-home-${theme}`);
    await open(page, lesson, 1280, theme);
    await save(`learner-lesson-top-${theme}`);
    await save(`learner-diagram-${theme}`, page.locator('figure.diagram').first());
    await page.locator('.toc a').nth(4).click();
    await save(`learner-toc-${theme}`);
    await page.keyboard.press('Control+k');
    await page.getByRole('searchbox').fill('backpressure');
    await expect(page.locator('.search-results a').first()).toBeVisible();
    await save(`learner-search-${theme}`);
    await open(page, lesson, 390, theme);
    await save(`learner-mobile-lesson-${theme}`);
    await page.getByRole('button', { name: 'Course menu' }).click();
    await save(`learner-mobile-menu-${theme}`);
  }
});
