// Full-page screenshots of home, a lesson (light and dark) and the report, kept as test artifacts
// (attached to the test and written to test-results/screenshots/). Each page is also checked for
// what a reader sees first: header, search, theme toggle (in the menu on phones) and the page title in the first screen,
// and no horizontal scrolling, on a desktop and on a phone-sized viewport.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

const SHOTS = [
  ['home-light', () => siteUrl(), 'light'],
  ['lesson-light', () => lessonUrl(lessons()[0]!), 'light'],
  ['lesson-dark', () => lessonUrl(lessons()[0]!), 'dark'],
  ['report-light', () => `${siteUrl('base')}report/`, 'light'],
] as const;

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The first screen shows the header, search, theme toggle and title, and nothing scrolls sideways. */
async function expectFirstScreen(page: Page, viewport: { width: number }): Promise<void> {
  // On a phone the theme menu is in the menu drawer (theme.spec.ts), and the course title is shown whole.
  const theme = page.getByRole('combobox', { name: 'Theme' });
  for (const element of [
    page.locator('header.site-header .brand'),
    page.locator('header button.search-button'),
    ...(viewport.width < 800 ? [] : [theme]),
    page.getByRole('heading', { level: 1 }),
  ]) {
    await expect(element).toBeVisible();
    await expect(element).toBeInViewport();
  }
  if (viewport.width < 800)
    await expect(page.getByRole('banner').getByRole('combobox', { name: 'Theme' })).toBeHidden();
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, `page is ${widths.scroll}px wide in a ${viewport.width}px viewport`).toBeLessThanOrEqual(
    widths.client,
  );
}

test('screenshots of home, a lesson (light and dark) and the report', async ({ page }, testInfo) => {
  await page.setViewportSize(DESKTOP);
  for (const [name, url, theme] of SHOTS) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(url(), { waitUntil: 'networkidle' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectFirstScreen(page, DESKTOP);
    const file = path.join(testInfo.project.outputDir, 'screenshots', `${name}.png`);
    const png = await page.screenshot({ path: file, fullPage: true });
    expect(png.length).toBeGreaterThan(10_000);
    await testInfo.attach(name, { body: png, contentType: 'image/png' });
    if (name.startsWith('lesson')) {
      // A lesson page is long: also keep its first screen and its first diagram at full size.
      const top = await page.screenshot({ path: path.join(path.dirname(file), `${name}-top.png`) });
      await testInfo.attach(`${name}-top`, { body: top, contentType: 'image/png' });
      const diagram = page.locator('figure.diagram').first();
      await expect(diagram).toBeVisible();
      const shot = await diagram.screenshot({ path: path.join(path.dirname(file), `${name}-diagram.png`) });
      await testInfo.attach(`${name}-diagram`, { body: shot, contentType: 'image/png' });
    }
  }
});

test('on a phone-sized screen every page keeps its header and title in view and does not scroll sideways', async ({
  page,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  for (const [name, url] of SHOTS.filter(([shot]) => shot.endsWith('-light'))) {
    await page.goto(url(), { waitUntil: 'networkidle' });
    await expectFirstScreen(page, PHONE);
    const top = await page.screenshot({
      path: path.join(testInfo.project.outputDir, 'screenshots', `${name}-phone.png`),
    });
    await testInfo.attach(`${name}-phone`, { body: top, contentType: 'image/png' });
  }
});
