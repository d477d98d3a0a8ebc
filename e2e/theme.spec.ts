// The theme menu (Light / Dark / System) switches the theme, persists the choice across pages and
// reloads, and "System" goes back to following the system preference.
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

test('the theme menu sets light or dark, persists across pages and reload, and System goes back to the system scheme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(siteUrl());
  const html = page.locator('html');
  const menu = page.getByRole('combobox', { name: 'Theme' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(menu).toHaveValue('auto');
  await expect(menu.locator('option')).toHaveText(['System', 'Light', 'Dark']);
  const lightBackground = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

  await menu.selectOption({ label: 'Dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'the page background changes').not.toBe(lightBackground);

  await page.getByRole('link', { name: 'Start the course' }).click();
  await expect(page).toHaveURL(lessonUrl(lessons()[0]!));
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('dark');

  // Dark chosen: the system turning light does not change it; System follows the system again.
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'System' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.goto(`${siteUrl()}glossary/`);
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('auto');
});

test('without a stored choice the system colour scheme decides', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(siteUrl());
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});
