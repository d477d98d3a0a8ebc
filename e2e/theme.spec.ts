// The theme menu (Light / Dark / System) switches the theme, persists the choice across pages and
// reloads, and "System" goes back to following the system preference.
import { curriculum, lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

test('the theme menu sets light or dark, persists across pages and reload, and System goes back to the system scheme', async ({
  page,
}) => {
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
  expect(
    await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor),
    'the page background changes',
  ).not.toBe(lightBackground);

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

test('on a phone the theme menu is in the menu drawer and the course title is shown whole in the header', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(lessonUrl(lessons()[0]!));
  const header = page.getByRole('banner');
  await expect(header.getByRole('combobox', { name: 'Theme' }), 'not in the header').toBeHidden();
  // The title: nothing cut off (no ellipsis: its text fits its box), beside the menu button and search.
  const title = header.getByRole('link').first();
  await expect(title).toContainText(curriculum().title);
  const cut = await title
    .locator('span')
    .evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
  expect(cut, 'the course title is not cut').toBe(false);
  const box = (await title.boundingBox())!;
  const bar = (await header.boundingBox())!;
  expect(box.y + box.height, 'inside the header').toBeLessThanOrEqual(bar.y + bar.height);
  // In the menu: one Theme menu, which works and is remembered.
  await page.getByRole('button', { name: 'Course menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Course' }).getByRole('combobox', { name: 'Theme' });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveCount(1);
  await menu.selectOption({ label: 'Dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(
    header.getByRole('combobox', { name: 'Theme' }),
    "the header's menu on wide screens, showing the same choice",
  ).toHaveValue('dark');
  await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveCount(1);
});
