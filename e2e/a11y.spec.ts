// axe-core with no violation of any impact on every page type of both builds (with a lesson whose
// diagrams client-side mermaid draws) and a lesson's files page, the search dialog (also full screen at
// 390 px), the mobile menu, the "On this page" bar, the readalong's code panel (1920 px) and a diagram's
// full-size dialog zoomed in, in both themes. First in file order, so that these long tests
// start first. axe runs in legacy mode, in the page itself, injected once per document (axe.ts): a page
// that gained a frame would need AxeBuilder's frame mode, so the test fails on any <iframe>.
import { axeViolations } from './axe.ts';
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, openPage as open, test } from './fixtures.ts';

const THEMES = ['light', 'dark'] as const;

// Two tests a theme, so that they run side by side.
const PAGES = {
  'every page type of the publish build': [
    ['home', () => siteUrl()],
    ['lesson', () => lessonUrl(lessons()[0]!)],
    ['another lesson', () => lessonUrl(lessons()[2] ?? lessons()[0]!)],
    ["a lesson's files", () => `${lessonUrl(lessons()[0]!)}files/`],
    ['glossary', () => `${siteUrl()}glossary/`],
    ['sources', () => `${siteUrl()}sources/`],
    ['search page', () => `${siteUrl()}search/`],
    ['not found', () => `${siteUrl()}no-such-page/`],
  ],
  'the drafts build, the search dialog and the mobile menu': [
    ['lesson with client-side diagrams (drafts build)', () => lessonUrl(lessons()[2] ?? lessons()[0]!, 'base')],
    ['report (drafts build)', () => `${siteUrl('base')}report/`],
    ['progress (drafts build)', () => `${siteUrl('base')}progress/`],
  ],
} as const;

for (const theme of THEMES) {
  for (const [group, pages] of Object.entries(PAGES)) {
    test(`axe: no violation of any impact on ${group} (${theme})`, async ({ page }) => {
      test.setTimeout(180_000);
      const found: string[] = [];
      const check = async (label: string) => {
        // Only violations are detailed.
        const violations = await axeViolations(page, { options: { resultTypes: ['violations'] } });
        found.push(
          ...violations.map(
            (v) =>
              `${label}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.length}× e.g. ${v.nodes
                .slice(0, 3)
                .map((n) => n.target.join(' '))
                .join(' | ')})`,
          ),
        );
      };
      for (const [name, url] of pages) {
        page.removeAllListeners('console');
        await open(page, url(), 1280, theme);
        await expect(page.locator('pre.mermaid-source')).toHaveCount(0, { timeout: 60_000 }); // client-side diagrams drawn
        await expect(page.locator('iframe')).toHaveCount(0);
        await check(name);
      }
      if (group === 'the drafts build, the search dialog and the mobile menu') {
        await open(page, lessonUrl(lessons()[0]!), 1280, theme);
        await page.keyboard.press('/');
        await page.getByRole('searchbox').fill('stream');
        await expect(page.locator('.search-results a').first()).toBeVisible();
        await check('search dialog');
        await open(page, lessonUrl(lessons()[0]!), 390, theme);
        await page.keyboard.press('/');
        await page.getByRole('searchbox').fill('stream');
        await expect(page.locator('.search-results a').first()).toBeVisible();
        await check('search dialog at 390 px (full screen)');
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Course menu' }).click();
        await check('mobile menu');
        await page.keyboard.press('Escape');
        await page.getByRole('navigation', { name: 'On this page' }).locator('summary').click();
        await check('"On this page" bar open at 390 px');
        await open(page, lessonUrl(lessons()[0]!), 1920, theme);
        await page
          .locator('[data-readalong] .ra-text')
          .first()
          .evaluate((el) =>
            window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight * 0.3),
          );
        await expect(page.locator('[data-readalong][data-enhanced] .ra-step[aria-current="step"]')).toHaveCount(1);
        await check("the readalong's code panel at 1920 px");
        await page
          .getByRole('button', { name: /^Full size/ })
          .first()
          .click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await page.getByRole('dialog').getByRole('button', { name: 'Zoom in' }).click();
        await check('a diagram full size, zoomed in');
      }
      expect(found).toEqual([]);
    });
  }
}
