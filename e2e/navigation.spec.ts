// Home lists the curriculum in order; prev/next chain every lesson; keyboard-only navigation and search.
import { curriculum, lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

test('home lists modules and lessons in curriculum order', async ({ page }) => {
  await page.goto(siteUrl());
  const course = curriculum();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(course.title);
  const modules = page.locator('section.module');
  await expect(modules.locator('h2')).toHaveText(course.modules.map((m) => `Module ${m.id}: ${m.title}`));
  for (const [i, mod] of course.modules.entries()) {
    const links = modules.nth(i).locator('.lesson-card h3 a');
    await expect(links).toHaveText(mod.lessons.map((l) => `${l.id} ${l.title}`));
    const hrefs = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs).toEqual(
      lessons()
        .filter((l) => l.module.id === mod.id)
        .map((l) => lessonUrl(l)),
    );
  }
});

test('every lesson is reachable by following "next" from the first, and "prev" leads back', async ({ page }) => {
  const all = lessons();
  await page.goto(siteUrl());
  await page.locator('.lesson-card h3 a').first().click();
  for (const [i, lesson] of all.entries()) {
    await expect(page).toHaveURL(lessonUrl(lesson));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${lesson.title}`);
    const next = page.locator('nav.prevnext a[rel="next"]');
    if (i === all.length - 1) await expect(next).toHaveCount(0);
    else await next.click();
  }
  for (const lesson of all.slice(0, -1).reverse()) {
    await page.locator('nav.prevnext a[rel="prev"]').click();
    await expect(page).toHaveURL(lessonUrl(lesson));
  }
  await expect(page.locator('nav.prevnext a[rel="prev"]')).toHaveCount(0);
});

/** Presses Tab up to `limit` times from the top of the page, recording what gets focus. */
async function tabThrough(page: import('@playwright/test').Page, limit: number) {
  const focused: Array<{ tag: string; id: string; text: string; href: string; className: string }> = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    focused.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return {
          tag: el.tagName.toLowerCase(),
          id: el.id,
          text: el.textContent?.trim() ?? '',
          href: el.getAttribute('href') ?? '',
          className: el.className,
        };
      }),
    );
  }
  return focused;
}

test('keyboard only: Tab from the top reaches the skip link first, then the search button and the lesson links', async ({
  page,
}) => {
  await page.goto(siteUrl());
  const focused = await tabThrough(page, 12);
  expect(focused[0]).toMatchObject({ tag: 'a', className: 'skip-link', text: 'Skip to content' });
  expect(
    focused.some((f) => f.tag === 'button' && f.className === 'search-button'),
    'the search button gets focus',
  ).toBe(true);
  const first = lessons()[0]!;
  expect(
    focused.some((f) => f.tag === 'a' && f.href.endsWith(`lessons/${first.id}-${first.slug}/`)),
    'the first lesson link gets focus',
  ).toBe(true);

  // The skip link moves focus into the main content; Enter on a focused lesson link opens it.
  await page.goto(siteUrl());
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(() => document.activeElement?.getAttribute('href') ?? '')).includes('/lessons/')) break;
  }
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(lessonUrl(first));
});

test('keyboard only: Tab to the search button, Enter, type, ArrowDown and Enter open a result', async ({ page }) => {
  await page.goto(lessonUrl(lessons()[0]!));
  const button = page.getByRole('button', { name: 'Search' });
  for (let i = 0; i < 15 && !(await button.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.type('backpressure');
  const first = page.locator('.search-results a').first();
  await expect(first).toBeVisible();
  const target = await first.getAttribute('href');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new URL(target!, siteUrl()).href);
});
