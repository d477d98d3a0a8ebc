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

test('lesson pages: readable line length, code and diagrams as wide as the text, no sideways scroll', async ({
  page,
}) => {
  for (const width of WIDTHS) {
    await open(page, lessonUrl(lessons()[0]!), width, 'light');
    const m = await page.evaluate(() => {
      // Characters per full line of the longest paragraph: its length times the column width over
      // the width of its text set on one line (in the paragraph's font).
      const context = document.createElement('canvas').getContext('2d')!;
      const measure = (paras: Element[]) => {
        const para = paras.sort((a, b) => (b.textContent?.length ?? 0) - (a.textContent?.length ?? 0))[0];
        if (!para) return null;
        const style = getComputedStyle(para);
        const text = para.textContent ?? '';
        context.font = style.font;
        const column = para.getBoundingClientRect().width;
        return {
          chars: (text.length * column) / context.measureText(text).width,
          font: parseFloat(style.fontSize),
          column: Math.round(column),
        };
      };
      const paras = [...document.querySelectorAll('article .doc p')];
      const inSteps = (p: Element) => p.closest('.ra[data-enhanced]') !== null;
      const widths = (sel: string) =>
        [...document.querySelectorAll(sel)].map((e) => Math.round(e.getBoundingClientRect().width));
      // Beside a code panel (1920 px) the readalong's prose has a column of its own.
      return {
        text: measure(paras.filter((p) => !inSteps(p)))!,
        steps: measure(paras.filter(inSteps)),
        code: widths('article .doc .expressive-code:not(.ra[data-enhanced] *)'),
        panel: document.querySelector('.ra[data-enhanced] .ra-code')?.getBoundingClientRect().right ?? null,
        diagrams: widths('article figure.diagram'),
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      };
    });
    expect(m.overflow, `${width}px: no sideways scroll`).toBe(0);
    // A code block that scrolls is a named region the keyboard can reach (Tab, then the arrow keys); one that
    // does not is no tab stop.
    const blocks = await page.locator('.expressive-code pre').evaluateAll((pres) =>
      pres.map((p) => ({
        scrolls: p.scrollWidth > p.clientWidth || p.scrollHeight > p.clientHeight,
        tab: p.getAttribute('tabindex'),
        role: p.getAttribute('role'),
        label: p.getAttribute('aria-label'),
      })),
    );
    if (width < 500)
      expect(blocks.filter((b) => b.scrolls).length, `${width}px: a code block scrolls`).toBeGreaterThan(0);
    for (const [i, b] of blocks.entries())
      if (b.scrolls) {
        expect([b.tab, b.role], `${width}px: code block ${i + 1} scrolls`).toEqual(['0', 'region']);
        expect(b.label).toMatch(new RegExp(`\\(code block ${i + 1}\\)$`));
      } else expect(b.tab, `${width}px: code block ${i + 1} does not scroll`).toBeNull();
    for (const column of [m.text, m.steps].filter((c) => c !== null)) {
      expect(column.chars, `${width}px: at most about 85 characters a line`).toBeLessThanOrEqual(85);
      expect(column.chars, `${width}px: at least about 40 characters a line`).toBeGreaterThanOrEqual(
        width < 500 ? 30 : 40,
      );
      expect(column.font).toBeGreaterThanOrEqual(16);
    }
    test.info().annotations.push({
      type: `characters per line at ${width}px`,
      description: `${m.text.chars.toFixed(0)}${m.steps ? `, beside the code panel ${m.steps.chars.toFixed(0)}` : ''}`,
    });
    // Inline code and diagram blocks span the text column (a diagram wider than the text may take the free
    // area beside it on wide screens: page-columns.spec.ts); the code panel (wide screens only) stays in the page.
    for (const w of m.code)
      expect(
        Math.abs(w - m.text.column),
        `${width}px: code blocks span the text column (${m.text.column}px)`,
      ).toBeLessThanOrEqual(1);
    for (const w of m.diagrams)
      expect(
        w - m.text.column,
        `${width}px: diagrams span the text column (${m.text.column}px) or more`,
      ).toBeGreaterThanOrEqual(-1);
    if (width < 1000)
      for (const w of m.diagrams)
        expect(Math.abs(w - m.text.column), `${width}px: diagrams as wide as the text`).toBeLessThanOrEqual(1);
    // No code panel at 390 nor at 1280 px: there it would be narrower than the text (reader-rows.spec.ts); scrolly.spec.ts has it at 1920.
    expect(m.panel, `${width}px: the readalong's code inline`).toBeNull();
    expect(m.steps === null).toBe(m.panel === null);
    if (m.panel !== null) expect(m.panel).toBeLessThanOrEqual(width);
  }
});

test('lesson pages with build-time diagrams load at most 15 KB of JavaScript (gzip): no mermaid, no search before it opens', async ({
  page,
}) => {
  const external: Buffer[] = [];
  const urls: string[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() !== 'script') return;
    urls.push(new URL(r.url()).pathname);
    external.push(await r.body());
  });
  let measured = 0;
  for (const lesson of lessons()) {
    external.length = 0;
    urls.length = 0;
    await open(page, lessonUrl(lesson), 1920, 'light');
    await expect(page.locator('[data-readalong][data-enhanced]'), 'measured with scrollycoding running').toHaveCount(1);
    const inline = await page.locator('script:not([src])').allTextContents();
    const bytes = [...external, ...inline.map((t) => Buffer.from(t))].reduce((sum, b) => sum + gzipSync(b).length, 0);
    test.info().annotations.push({ type: `lesson ${lesson.id} JS (gzip bytes)`, description: String(bytes) });
    expect(bytes, `lesson ${lesson.id}`).toBeLessThanOrEqual(15 * 1024);
    // The shared page script (site/client/page.js) names pagefind's file; it loads it only when search opens.
    expect(
      urls.filter((u) => /pagefind|mermaid/.test(u)),
      'no pagefind or mermaid before search opens',
    ).toEqual([]);
    measured++;
  }
  expect(measured).toBe(lessons().length);
});

test('screenshots: home, lesson top, diagram, TOC, search dialog, mobile menu, in both themes', async ({
  page,
}, testInfo) => {
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
    // Reading the readalong at 1280 px: its code inline, the whole table of contents beside it, the section marked.
    await page
      .locator('[data-readalong] .ra-text')
      .first()
      .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight * 0.3));
    await expect(page.locator('nav.toc a[aria-current="true"]')).toBeInViewport();
    await save(`learner-toc-${theme}`);
    await page.keyboard.press('Control+k');
    await page.getByRole('searchbox').fill('backpressure');
    await expect(page.locator('.search-results a').first()).toBeVisible();
    await save(`learner-search-${theme}`);
    await open(page, lesson, 390, theme);
    await save(`learner-mobile-lesson-${theme}`);
    await page.keyboard.press('Control+k');
    await page.getByRole('searchbox').fill('stream');
    await expect(page.locator('.search-results a').first()).toBeVisible();
    await save(`learner-mobile-search-${theme}`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Course menu' }).click();
    await save(`learner-mobile-menu-${theme}`);
  }
});
