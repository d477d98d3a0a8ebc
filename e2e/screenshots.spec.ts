// Full-page screenshots of home, a lesson (light and dark) and the report, kept as test artifacts
// (attached to the test and written to test-results/screenshots/).
import path from 'node:path';
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

const SHOTS = [
  ['home-light', () => siteUrl(), 'light'],
  ['lesson-light', () => lessonUrl(lessons()[0]!), 'light'],
  ['lesson-dark', () => lessonUrl(lessons()[0]!), 'dark'],
  ['report-light', () => `${siteUrl('base')}report/`, 'light'],
] as const;

test('screenshots of home, a lesson (light and dark) and the report', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const [name, url, theme] of SHOTS) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(url(), { waitUntil: 'networkidle' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const file = path.join(testInfo.project.outputDir, 'screenshots', `${name}.png`);
    const png = await page.screenshot({ path: file, fullPage: true });
    expect(png.length).toBeGreaterThan(10_000);
    await testInfo.attach(name, { body: png, contentType: 'image/png' });
    if (name.startsWith('lesson')) {
      // A lesson page is long: also keep its first screen and its first diagram at full size.
      const top = await page.screenshot({ path: path.join(path.dirname(file), `${name}-top.png`) });
      await testInfo.attach(`${name}-top`, { body: top, contentType: 'image/png' });
      const diagram = await page.locator('figure.diagram').first().screenshot({ path: path.join(path.dirname(file), `${name}-diagram.png`) });
      await testInfo.attach(`${name}-diagram`, { body: diagram, contentType: 'image/png' });
    }
  }
});
