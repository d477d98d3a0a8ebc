// The learner view: a publish build (root) shows the course, not how it was made; the drafts build
// (base) keeps the production details. Also the example course's branding from config.yaml site:.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { listLessonCodeFiles } from '../pipeline/index.ts';
import { lessonDir, lessonUrl, lessons, siteUrl, type Lesson } from './course.ts';
import { expect, test } from './fixtures.ts';

/** The diagrams of a lesson's docs in page order, each with its `%% title:` (null without one). */
function diagramTitles(lesson: Lesson): Array<string | null> {
  const docs = path.join(lessonDir(lesson), 'docs');
  const title = (source: string) => /^\s*%%\s*title:\s*(.+)$/.exec(source.split('\n')[0] ?? '')?.[1]?.trim() ?? null;
  const fenced = ['readalong.md', 'notes.md'].flatMap((f) =>
    [...readFileSync(path.join(docs, f), 'utf8').matchAll(/^```mermaid[^\n]*\n([\s\S]*?)^```/gm)].map((m) =>
      title(m[1]!),
    ),
  );
  const dir = path.join(docs, 'diagrams');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.mmd'))
        .sort()
        .map((f) => title(readFileSync(path.join(dir, f), 'utf8')))
    : [];
  return [...fenced, ...files];
}

test('a publish build shows learners no production details', async ({ page, request }) => {
  await page.goto(siteUrl());
  await expect(page.locator('.lesson-card')).toHaveCount(lessons().length);
  await expect(page.locator('.badge')).toHaveCount(0);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Report' })).toHaveCount(0);
  expect((await request.get(`${siteUrl()}report/`)).status(), 'no report page').toBe(404);
  await expect(page.getByRole('link', { name: 'Progress' })).toHaveCount(0);
  expect((await request.get(`${siteUrl()}progress/`)).status(), 'no progress board').toBe(404);

  let captions = 0;
  for (const lesson of lessons()) {
    await page.goto(lessonUrl(lesson));
    const verify = page.getByRole('complementary', { name: 'Verification' });
    await expect(verify, 'the verification badge stays').toContainText(/tests passed \d+\/\d+/);
    await expect(verify).toContainText('verified');
    await expect(verify.locator('code')).toHaveCount(0);
    await expect(verify).not.toContainText('run ');
    await expect(page.locator('.badge[class*="stage-"]')).toHaveCount(0);
    await expect(page.locator('.site-header')).not.toContainText('Report');
    // Captions come only from `%% title:`: none says where the diagram is.
    const titles = diagramTitles(lesson);
    await expect(page.locator('figure.diagram')).toHaveCount(titles.length);
    await expect(page.locator('figure.diagram figcaption')).toHaveText(titles.filter((t) => t !== null) as string[]);
    captions += titles.filter((t) => t !== null).length;
    expect(await page.content()).not.toMatch(/docs\/(readalong|notes)\.md line \d+|sha256:|code [0-9a-f]{12}/);
    // Full listings are on a page of their own: the lesson page carries its prose and the readalong's code.
    await expect(page.locator('.code-file')).toHaveCount(0);
    const tree = page.getByRole('navigation', { name: 'Lesson files' });
    const first = tree.getByRole('link').first();
    const name = (await first.textContent())!;
    await page.getByRole('link', { name: /^All \d+ files of this lesson, with their code$/ }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      new RegExp(`^Files of ${lesson.id.replace('.', '\\.')} `),
    );
    await expect(
      page
        .getByRole('region', { name: /./ })
        .filter({ has: page.locator('pre') })
        .first(),
    ).toBeVisible();
    // The sidebar still marks the lesson the files belong to.
    await expect(page.getByRole('navigation', { name: 'Course' }).locator('a[aria-current="true"]')).toHaveText(
      new RegExp(`^${lesson.id.replace('.', '\\.')}\\s`),
    );
    await page.goBack();
    await first.click();
    // A file of the tree opens the files page at that file's listing.
    await expect(page).toHaveURL(/\/files\/#file-/);
    const target = page.locator(':target');
    // The file's heading (its path), which names its section.
    await expect(target).toHaveText(new RegExp(`(^|/)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    await expect(target).toBeInViewport();
  }
  expect(captions, 'the example has diagrams with and without %% title:').toBeGreaterThan(0);
});

test('the drafts build keeps the production details: stages, report, code hash', async ({ page }) => {
  await page.goto(siteUrl('base'));
  await expect(page.locator('.badge.stage-done').first()).toBeVisible();
  await expect(page.getByRole('progressbar')).toBeVisible();
  await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Report' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Generation report');
  await page.goto(lessonUrl(lessons()[0]!, 'base'));
  await expect(page.getByRole('complementary', { name: 'Verification' }).locator('code')).toHaveText(/^[0-9a-f]{12}$/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
});

test("the example course's branding: logo, favicon, accent in both themes, edit link, repo link, footer", async ({
  page,
}) => {
  const lesson = lessons()[0]!;
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(lessonUrl(lesson));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('.brand img')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  expect(await page.locator('.brand img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^data:image\/svg\+xml;base64,/);
  const accent = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--c-accent').trim());
  expect(await accent()).toBe('#0b7a75');
  await expect(page.locator('.sidebar a[aria-current="page"]')).toHaveCSS('color', 'rgb(11, 122, 117)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  expect(await accent(), 'a lighter accent on dark pages').toBe('#3c9591');
  const dir = path
    .relative(path.dirname(path.dirname(lessonDir(lesson))), lessonDir(lesson))
    .split(path.sep)
    .join('/');
  await expect(page.getByRole('link', { name: /^Edit this page/ }).first()).toHaveAttribute(
    'href',
    `https://github.com/codelabgen/node-streams/edit/main/${dir}/docs/readalong.md`,
  );
  await expect(page.getByRole('link', { name: 'Repository', exact: true })).toHaveAttribute(
    'href',
    'https://github.com/codelabgen/node-streams',
  );
  await expect(page.locator('.site-footer')).toContainText('code under the MIT licence');
});

test('a lesson page offers its code: the folder as a zip, the test command, the repository; the badge links there', async ({
  page,
  request,
}) => {
  const lesson = lessons()[0]!;
  const folder = path.basename(lessonDir(lesson));
  await page.goto(lessonUrl(lesson));
  await page
    .getByRole('complementary', { name: 'Verification' })
    .getByRole('link', { name: /^tests passed \d+\/\d+/ })
    .click();
  await expect(page).toHaveURL(/#get-the-code$/);
  const download = page.getByRole('link', { name: 'Download the code' });
  await expect(download).toBeInViewport();
  await expect(download).toHaveAttribute('download', `${folder}.zip`);
  const code = page.locator('#get-the-code');
  await expect(code).toContainText(`folder ${folder}`);
  await expect(code.locator('pre')).toHaveText(`cd ${folder}node --test`); // one line each; the runtime's command as it ran
  await expect(code.getByRole('link', { name: 'course repository' })).toHaveAttribute(
    'href',
    'https://github.com/codelabgen/node-streams',
  );

  // The zip: one folder named like the lesson's, holding exactly the verified files (no docs/, no caches), byte for byte.
  const response = await request.get(new URL((await download.getAttribute('href'))!, page.url()).href);
  expect(response.status()).toBe(200);
  const body = new Uint8Array(await response.body());
  expect(Buffer.from(body.subarray(0, 4)).toString('latin1'), 'a zip file').toBe('PK\x03\x04');
  const entries = unzipSync(body);
  const expected = listLessonCodeFiles(lessonDir(lesson));
  expect(expected.length).toBeGreaterThan(1);
  expect(Object.keys(entries).sort()).toEqual(expected.map((f) => `${folder}/${f}`));
  for (const file of expected)
    expect(
      Buffer.from(entries[`${folder}/${file}`]!).equals(readFileSync(path.join(lessonDir(lesson), file))),
      file,
    ).toBe(true);
});
