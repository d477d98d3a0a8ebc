// Finding one's way around a lesson: the course sidebar (current lesson, collapsible modules), the
// menu button on narrow screens, the on-page table of contents and heading anchors, by keyboard too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { courseDir, curriculum, lessonUrl, lessons, readLessonFile, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

test('the sidebar lists every lesson by module, marks the current one, and modules collapse', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const course = curriculum();
  const last = lessons().at(-1)!;
  await page.goto(lessonUrl(last));
  const sidebar = page.getByRole('navigation', { name: 'Course' });
  const modules = sidebar.locator('details.sidebar-module');
  await expect(modules.locator('summary')).toHaveText(course.modules.map((m) => `${m.id}. ${m.title}`));
  const current = sidebar.locator('a[aria-current="page"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText(`${last.id} ${last.title}`);
  // Its border runs the full height under the header, whatever the list's length.
  const header = (await page.locator('.site-header').boundingBox())!;
  const box = (await sidebar.boundingBox())!;
  expect(Math.round(box.y)).toBe(Math.round(header.y + header.height));
  expect(Math.round(box.y + box.height)).toBe(900);
  // The current module is open, the others are closed; a click (or Enter) on a module toggles it.
  const own = modules.filter({ has: page.locator('a[aria-current="page"]') });
  await expect(own).toHaveAttribute('open');
  const other = modules.first();
  await expect(other).not.toHaveAttribute('open');
  await expect(other.locator('a').first()).toBeHidden();
  await other.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(other.locator('a')).toHaveText(course.modules[0]!.lessons.map((l) => `${l.id} ${l.title}`));
  await other.locator('a').first().click();
  await expect(page).toHaveURL(lessonUrl(lessons()[0]!));
  await expect(sidebar.locator('a[aria-current="page"]')).toHaveText(`${lessons()[0]!.id} ${lessons()[0]!.title}`);
});

test('the table of contents lists the h2/h3 headings, marks the one in view; every heading has an anchor', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  // The reader's "Inline code" choice: the readalong is inline, the table of contents a column (scrolly.spec.ts has the bar).
  await page.addInitScript(() => localStorage.setItem('codelabgen-readalong', 'inline'));
  await page.goto(lessonUrl(lessons()[0]!));
  const headings = page.locator('article :is(h2, h3)');
  const shown = await headings.evaluateAll((hs) => hs.map((h) => ({ id: h.id, text: h.textContent?.trim() ?? '' })));
  expect(shown.length).toBeGreaterThan(5);
  expect(
    shown.every((h) => h.id !== ''),
    'every h2/h3 has an id',
  ).toBe(true);
  expect(new Set(shown.map((h) => h.id)).size, 'ids are unique').toBe(shown.length);
  const toc = page.getByRole('navigation', { name: 'On this page' });
  await expect(toc.locator('a')).toHaveText(shown.map((h) => h.text));
  expect(await toc.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(
    shown.map((h) => `#${h.id}`),
  );
  await expect(toc.locator('a[aria-current="true"]')).toHaveText(shown[0]!.text);

  // Following a TOC link scrolls its heading under the header and marks it.
  const target = shown[Math.floor(shown.length / 2)]!;
  await toc.getByRole('link', { name: target.text, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`#${target.id}$`));
  await expect(toc.locator('a[aria-current="true"]')).toHaveText(target.text);
  const top = await page.locator(`[id="${target.id}"]`).evaluate((h) => h.getBoundingClientRect().top);
  const header = await page.locator('.site-header').evaluate((h) => h.getBoundingClientRect().bottom);
  expect(top, 'the heading is not hidden under the sticky header').toBeGreaterThanOrEqual(header);

  // Each heading's anchor link points at it and shows when focused.
  for (const { id } of shown)
    await expect(page.locator(`[id="${id}"] + a.heading-anchor`)).toHaveAttribute('href', `#${id}`);
  const anchor = page.locator(`[id="${shown[1]!.id}"] + a.heading-anchor`);
  await expect(anchor).toHaveCSS('opacity', '0');
  await anchor.focus();
  await expect(anchor).toHaveCSS('opacity', '1');
  await expect(anchor).toHaveAccessibleName(`Section titled “${shown[1]!.text}”`);
});

test('a doc title with inline code shows code in its heading and "On this page", never backticks', async ({ page }) => {
  const titleOf = (l: typeof lessons extends () => (infer L)[] ? L : never) =>
    readLessonFile(l, 'docs/readalong.md').split('\n')[0]!.replace(/^#\s*/, '');
  const lesson = lessons().find((l) => titleOf(l).includes('`'));
  expect(lesson, 'the demo has a readalong titled with inline code').toBeTruthy();
  const title = titleOf(lesson!);
  const code = /`([^`]+)`/.exec(title)![1]!;
  const plain = title.replace(/`/g, '');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(lessonUrl(lesson!));
  const heading = page.getByRole('heading', { level: 2, name: plain, exact: true });
  await expect(heading.locator('code')).toHaveText(code);
  await expect(page.getByRole('link', { name: `Section titled “${plain}”` })).toHaveCount(1);
  // "On this page" keeps the code of the doc's headings (and calls a doc titled "<kind>: <lesson title>" by its kind).
  // At the top of the page it is the column (all links shown); elsewhere a bar to open.
  const toc = page.getByRole('navigation', { name: 'On this page' });
  if (await toc.locator('summary').isVisible()) await toc.locator('summary').click();
  const codeHeading = page
    .locator('article h3')
    .filter({ has: page.locator('code') })
    .first();
  const codeText = (await codeHeading.locator('code').first().textContent())!;
  await expect(
    toc
      .getByRole('link', { name: (await codeHeading.textContent())!.trim(), exact: true })
      .locator('code')
      .first(),
  ).toHaveText(codeText);
  // No backtick in the page's text outside code, its title or any label.
  const shown = await page.evaluate(() => {
    const out = [
      document.title,
      ...[...document.querySelectorAll('[aria-label]')].map((el) => el.getAttribute('aria-label')!),
    ];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode())
      if (!n.parentElement!.closest('pre, code, script, style')) out.push(n.textContent!);
    return out.filter((t) => t.includes('`'));
  });
  expect(shown).toEqual([]);
});

test('narrow screens: the menu button opens the sidebar, traps the page behind it, Escape closes it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const lesson = lessons()[1]!;
  await page.goto(lessonUrl(lesson));
  const button = page.getByRole('button', { name: 'Course menu' });
  const sidebar = page.getByRole('navigation', { name: 'Course' });
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(sidebar).toBeHidden();
  const mobileToc = page.getByRole('navigation', { name: 'On this page' });
  await expect(mobileToc, 'one table of contents: the bar at the top').toHaveCount(1);
  // Keyboard: the button is reached by Tab right after the skip link.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(sidebar).toBeVisible();
  await expect(sidebar.locator('a[aria-current="page"]')).toBeFocused();
  expect(await page.locator('main').evaluate((m) => (m as HTMLElement).inert), 'the page behind is inert').toBe(true);
  await page.keyboard.press('Escape');
  await expect(sidebar).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  // The table of contents is a closed disclosure in a bar at the top, which stays under the header
  // and names the section being read.
  await expect(mobileToc.locator('a').first()).toBeHidden();
  // A doc titled "<kind>: <the lesson's title>" is listed by its kind only.
  const short = (h: string) =>
    h.toLowerCase().endsWith(`: ${lesson.title.toLowerCase()}`) ? h.slice(0, h.indexOf(':')) : h;
  const headings = (
    await page.locator('article :is(h2, h3)').evaluateAll((hs) => hs.map((h) => h.textContent?.trim() ?? ''))
  ).map(short);
  await page.locator('#notes').evaluate((h) => h.scrollIntoView());
  await expect(mobileToc).toBeInViewport();
  const header = (await page.locator('.site-header').boundingBox())!;
  expect(Math.round((await mobileToc.boundingBox())!.y), 'right under the header').toBe(
    Math.round(header.y + header.height),
  );
  await expect(mobileToc.locator('summary')).toContainText(headings.find((h) => h.startsWith('Notes'))!);
  await mobileToc.locator('summary').click();
  await expect(mobileToc.locator('a')).toHaveText(headings);
  await mobileToc.getByRole('link', { name: headings[0], exact: true }).click();
  await expect(mobileToc.locator('a').first(), 'a link closes the list').toBeHidden();
  await expect(mobileToc.locator('summary')).toContainText(headings[0]!);
  // Glossary and Sources move into the menu when the header has no room for them.
  await button.click();
  await sidebar.getByRole('link', { name: 'Glossary' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Glossary');
});

test('without JavaScript the sidebar stays in the page on narrow screens', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(lessonUrl(lessons()[0]!));
  await expect(page.getByRole('navigation', { name: 'Course' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Course menu' })).toBeHidden();
  await context.close();
});

test('next to the lesson: its prerequisites at the top, its sources at the end, the Sources page with titles and dates', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const all = lessons();
  const spec = curriculum().modules.flatMap(
    (m) => m.lessons as Array<{ id: string; prerequisites?: string[]; topics?: string[] }>,
  );
  const lesson = all.find((l) => (spec.find((s) => s.id === l.id)?.prerequisites ?? []).length > 0)!;
  const prerequisites = spec.find((s) => s.id === lesson.id)!.prerequisites!;
  await page.goto(lessonUrl(lesson));
  const before = page.getByText('Before this lesson:');
  for (const id of prerequisites) {
    const other = all.find((l) => l.id === id)!;
    await expect(before.getByRole('link', { name: `${other.id} ${other.title}` })).toHaveAttribute(
      'href',
      new URL(lessonUrl(other)).pathname,
    );
  }
  expect((await before.boundingBox())!.y, 'at the top, above the objectives').toBeLessThan(
    (await page.locator('#objectives').boundingBox())!.y,
  );
  // Sources: the accepted sources of the lesson's topics, titled and linked, at the end of the article.
  const read = (file: string) =>
    readFileSync(path.join(courseDir(), '.codelabgen', file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  const sources = read('sources.jsonl').filter((s) => s.status === 'accepted') as Array<{
    id: string;
    title: string;
    url: string;
    retrieved_at?: string;
  }>;
  const section = page.getByRole('region', { name: 'Sources' });
  const links = section.getByRole('listitem').getByRole('link', { name: /^(?!Notes on)/ });
  expect(await links.count()).toBeGreaterThan(0);
  for (const link of await links.all()) {
    const title = await link.textContent();
    const source = sources.find((s) => s.title === title);
    expect(source, `${title} is an accepted source`).toBeTruthy();
    await expect(link).toHaveAttribute('href', source!.url);
  }
  // "On this page" names the notes "Notes", not the lesson's title again.
  const notesTitle = readLessonFile(lesson, 'docs/notes.md').split('\n')[0]!.replace(/^#\s*/, '').replace(/`/g, '');
  const toc = page.getByRole('navigation', { name: 'On this page' });
  if (await toc.locator('summary').isVisible()) await toc.locator('summary').click();
  if (notesTitle.toLowerCase().endsWith(lesson.title.toLowerCase()))
    await expect(toc.getByRole('link', { name: 'Notes', exact: true })).toHaveCount(1);
  await expect(toc.getByRole('link', { name: 'Sources', exact: true })).toHaveCount(1);

  // The Sources page: each source's title as a link, its retrieval date, no label running into a heading.
  await page.goto(`${siteUrl()}sources/`);
  for (const source of sources) {
    const entry = page.getByRole('region', { name: source.title });
    await expect(entry.getByRole('heading', { level: 2 })).toHaveText(source.title);
    await expect(entry.getByRole('link', { name: source.title })).toHaveAttribute('href', source.url);
    if (source.retrieved_at) await expect(entry).toContainText(`retrieved ${source.retrieved_at.slice(0, 10)}`);
  }
  expect(await page.locator('main').textContent()).not.toMatch(/Digest\s*Digest/);
});
