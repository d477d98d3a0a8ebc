// The theme toggle switches light/dark, is announced (aria-pressed), and the choice persists
// across pages and reloads; without a stored choice the system preference decides.
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

test('theme toggle works and persists across pages and reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(siteUrl());
  const html = page.locator('html');
  const toggle = page.getByRole('button', { name: 'Toggle dark mode' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  const lightBackground = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'the page background changes').not.toBe(lightBackground);

  await page.locator('.lesson-card h3 a').first().click();
  await expect(page).toHaveURL(lessonUrl(lessons()[0]!));
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('button', { name: 'Toggle dark mode' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('button', { name: 'Toggle dark mode' }).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.goto(`${siteUrl()}glossary/`);
  await expect(html).toHaveAttribute('data-theme', 'light');
});

test('without a stored choice the system colour scheme decides', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(siteUrl());
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});
