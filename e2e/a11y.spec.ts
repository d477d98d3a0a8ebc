// axe-core on the main page types, in both themes: no serious or critical violation.
import AxeBuilder from '@axe-core/playwright';
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

const PAGES = [
  ['home', () => siteUrl()],
  ['lesson', () => lessonUrl(lessons()[2] ?? lessons()[0]!)],
  ['glossary', () => `${siteUrl()}glossary/`],
  ['report', () => `${siteUrl('base')}report/`],
] as const;

for (const [name, url] of [...PAGES, ['lesson with client-side diagrams', () => lessonUrl(lessons()[2] ?? lessons()[0]!, 'base')] as const]) {
  for (const theme of ['light', 'dark'] as const) {
    test(`axe: no serious or critical violation on the ${name} page (${theme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(url());
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await expect(page.locator('pre.mermaid-source')).toHaveCount(0, { timeout: 60_000 }); // client-side diagrams drawn
      const { violations } = await new AxeBuilder({ page }).analyze();
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}× e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`);
      expect(serious).toEqual([]);
    });
  }
}
