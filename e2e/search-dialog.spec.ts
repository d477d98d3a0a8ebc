// Search as a dialog: header button, Ctrl/Cmd+K and "/"; pagefind loads on the first open only;
// results are places titled by their heading path (inline code as code, no raw backticks), the most
// specific first, with excerpts without code line numbers; themed in both schemes.
import type { Locator } from '@playwright/test';
import { lessonUrl, lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

/**
 * Searches for `q` in the open dialog and returns the results of `q` only (their <li>). The results on
 * show are marked first: the list of the query before (which may hold the same links) is replaced when
 * the new results arrive, and a click or a key aimed at an old result just before then lands on whatever
 * result takes its place (the page holds new results only while a result is pressed: the test below).
 */
async function searchFor(dialog: Locator, q: string): Promise<Locator> {
  await dialog.locator('.search-results').evaluate((list) => {
    for (const li of list.children) li.setAttribute('data-stale', '');
  });
  await dialog.getByRole('searchbox').fill(q);
  return dialog.locator('.search-results > li:not([data-stale])');
}

test('the search dialog opens from the button, Ctrl+K and "/", loads pagefind only then, and finds lessons', async ({
  page,
}) => {
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(lessonUrl(lessons()[0]!));
  const dialog = page.getByRole('dialog', { name: 'Search the course' });
  await expect(dialog).toBeHidden();
  expect(
    requested.filter((u) => u.includes('/pagefind/')),
    'nothing of pagefind before the dialog opens',
  ).toEqual([]);

  await page.keyboard.press('Control+k');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('searchbox')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.keyboard.press('/');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(dialog.getByRole('searchbox')).toBeFocused();
  await page.keyboard.type('backpressure');
  const results = dialog.locator('.search-results a');
  await expect(results.first()).toBeVisible();
  expect(requested.some((u) => u.endsWith('/pagefind/pagefind.js'))).toBe(true);
  const titles = await results.locator('strong').allTextContents();
  expect(titles.length).toBeGreaterThan(1);
  for (const title of titles) expect(title, 'plain-text titles').not.toMatch(/[`<>]/);
  // Results are places: the section that matched ("1.2 Writable streams... › Writing with backpressure"),
  // linked by its anchor, quoting prose (code listings are not indexed: no "}); 24. const stream = ...").
  await dialog.getByRole('searchbox').fill('highWaterMark');
  await expect(results.first().locator('.search-excerpt')).toContainText('highWaterMark');
  const excerpts = await results.locator('.search-excerpt').allTextContents();
  expect(excerpts.join(' ')).toContain('highWaterMark');
  // (A semicolon alone is prose too: '"keep going"; false means ...'.)
  for (const excerpt of excerpts) expect(excerpt, 'no code in snippets').not.toMatch(/[{}]\s|\);|\s#\s|=>|\bconst\b/);
  const first = results.first();
  const place = (await first.getAttribute('href'))!;
  expect(place, 'the first result opens a section').toMatch(/\/lessons\/[^/]+\/#[a-z0-9-]+$/);
  await expect(first.locator('strong')).toHaveText(/^\d+\.\d+ .+ › .+$/);
  const heading = (await first.locator('strong').textContent())!.split(' › ').at(-1)!;
  const found = (await searchFor(dialog, 'backpressure')).locator('a');
  await expect(found.first()).toContainText('backpressure', { ignoreCase: true });
  // Keyboard: ArrowDown moves into the results, Enter follows one and closes the dialog.
  await page.keyboard.press('ArrowDown');
  await expect(found.first()).toBeFocused();
  const target = await found.first().getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new URL(target!, siteUrl()).href);
  await expect(dialog).toBeHidden();
  // The section a result names is the heading its anchor opens (named as "On this page" names it: `Notes`
  // for "Notes: writable streams, ...").
  await page.goto(new URL(place, siteUrl()).href);
  await expect(page.locator(`[id="${place.split('#')[1]}"]`)).toContainText(heading);
});

test('a result names its place by the heading path, inline code as code, links to that heading, the most specific first', async ({
  page,
}) => {
  await page.goto(siteUrl());
  await page.keyboard.press('/');
  const dialog = page.getByRole('dialog', { name: 'Search the course' });
  const results = dialog.getByRole('listitem');
  // "pipeline" is in lesson 2.1's title, its h2 "Read-along: pipeline(), ..." and its h3 below that: the
  // h3 is the place, named lesson › h2 (as "On this page" names it) › h3.
  await dialog.getByRole('searchbox').fill('pipeline');
  const first = results.first().getByRole('link');
  await expect(first.locator('strong')).toHaveText(
    '2.1 pipeline(), errors and cleanup › Read-along › pipeline() tears the whole chain down',
  );
  await expect(first.locator('strong code')).toHaveText(['pipeline()']);
  await expect(first).toHaveAttribute('href', /^\/lessons\/2\.1-[a-z-]+\/#pipeline-tears-the-whole-chain-down$/);
  // The next place whose heading matched comes before the sections that only mention the word.
  await expect(results.nth(1).getByRole('link').locator('strong')).toHaveText(/^2\.3 .+ › Read-along › The pipeline$/);
  for (const title of await results.locator('strong').allTextContents())
    expect(title, 'no raw backticks').not.toContain('`');
  const link = (await searchFor(dialog, 'tears')).getByRole('link', {
    name: /^2\.1 pipeline\(\), errors and cleanup › Read-along › pipeline\(\) tears the whole chain down/,
  });
  await expect(link).toBeVisible();
  await link.click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/lessons\/2\.1-[a-z-]+\/#pipeline-tears-the-whole-chain-down$/);
  const h3 = page.getByRole('heading', { level: 3, name: 'pipeline() tears the whole chain down' });
  await expect(h3).toHaveAttribute('id', 'pipeline-tears-the-whole-chain-down');
  // Its h2, the heading before it one level up, is the read-along's.
  const h2 = await h3.evaluate(
    (h) =>
      [...document.querySelectorAll('h2, h3')]
        .slice(0, [...document.querySelectorAll('h2, h3')].indexOf(h))
        .filter((e) => e.tagName === 'H2')
        .at(-1)!.textContent,
  );
  expect(h2).toMatch(/^Read-along: pipeline\(\), errors and cleanup/);
});

test('results that arrive while a result is pressed wait for the release: a click lands on the link pressed, a release elsewhere shows them', async ({
  page,
}) => {
  await page.goto(siteUrl());
  await page.keyboard.press('/');
  const dialog = page.getByRole('dialog', { name: 'Search the course' });
  const input = dialog.getByRole('searchbox');
  const links = dialog.locator('.search-results a');
  /** Presses the first result, then a newer query's results arrive (as a reader's last keystroke's would). */
  const pressFirstThenSearch = async (q: string) => {
    const box = (await links.first().boundingBox())!;
    await links.first().evaluate((a) => a.setAttribute('data-pressed', ''));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await input.evaluate((field: HTMLInputElement, q) => {
      field.value = q;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }, q);
    // Unheld, the new list replaces the pressed link within this time (170-650 ms when it was seen).
    const replaced = await page
      .waitForFunction(() => document.querySelector('.search-results a[data-pressed]') === null, null, {
        timeout: 2_000,
      })
      .then(
        () => true,
        () => false,
      );
    expect(replaced, `the results of "${q}" replaced the list under the pressed link`).toBe(false);
  };
  await input.fill('pipeline');
  await expect(links.nth(1)).toBeVisible();
  await pressFirstThenSearch('highWaterMark');
  // Released on another result: no link is followed, and then the newer results show.
  const other = (await links.nth(1).boundingBox())!;
  await page.mouse.move(other.x + other.width / 2, other.y + other.height / 2);
  await page.mouse.up();
  await expect(links.first().locator('.search-excerpt')).toContainText('highWaterMark');
  await expect(dialog).toBeVisible();
  const pressed = (await links.first().getAttribute('href'))!;
  await pressFirstThenSearch('pipeline');
  await page.mouse.up();
  await expect(page).toHaveURL(new URL(pressed, siteUrl()).href);
  await expect(dialog).toBeHidden();
});

test('"/" typed in a text field does not open search; a non-root base gets working result links', async ({ page }) => {
  await page.goto(lessonUrl(lessons()[0]!, 'base'));
  const dialog = page.getByRole('dialog', { name: 'Search the course' });
  await page.keyboard.press('/');
  const input = dialog.getByRole('searchbox');
  await input.fill('pipeline');
  await input.press('/');
  await expect(input).toHaveValue('pipeline/');
  await input.fill('pipeline');
  const first = dialog.locator('.search-results a').first();
  await expect(first).toHaveAttribute('href', /^\/course-site\/lessons\//);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the search dialog follows the ${theme} theme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(siteUrl());
    await page.getByRole('button', { name: 'Search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search the course' });
    const colours = await dialog.evaluate((d) => ({
      dialog: getComputedStyle(d).backgroundColor,
      page: getComputedStyle(document.documentElement).backgroundColor,
      input: getComputedStyle(d.querySelector('input')!).color,
    }));
    expect(colours.dialog).toBe(colours.page);
    expect(colours.input).toBe(theme === 'dark' ? 'rgb(230, 237, 243)' : 'rgb(31, 35, 40)');
  });
}
