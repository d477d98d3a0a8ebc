// Lesson content against the course on disk: readalong code references show the real lines,
// diagrams are visible SVGs in both themes, mermaid loads only where needed, search finds notes;
// asides, nested code references, optimized doc images and links between lessons (docs/site.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { courseDir, lessonDir, lessonUrl, lessons, readLessonFile, siteUrl, type Lesson } from './course.ts';
import { expect, test } from './fixtures.ts';

/** The code references (`file=... lines=A-B`) of a lesson's readalong, in order. */
function codeRefs(lesson: Lesson): Array<{ file: string; from: number; to: number }> {
  const refs = [
    ...readLessonFile(lesson, 'docs/readalong.md').matchAll(
      /^```\w*[^\n]*\bfile=(\S+)[^\n]*?\blines=(\d+)(?:-(\d+))?/gm,
    ),
  ];
  return refs.map((m) => ({ file: m[1]!, from: Number(m[2]), to: Number(m[3] ?? m[2]) }));
}

test('readalong code references show exactly the lines of the real files', async ({ page }) => {
  const checked: string[] = [];
  for (const lesson of lessons()) {
    const refs = codeRefs(lesson);
    if (refs.length === 0) continue;
    await page.goto(lessonUrl(lesson));
    const blocks = page.locator('[data-doc="docs/readalong.md"] figure.frame');
    await expect(blocks).toHaveCount(refs.length);
    for (const [i, ref] of refs.entries()) {
      const block = blocks.nth(i);
      await expect(block.locator('figcaption .title')).toHaveText(ref.file);
      const expected = readLessonFile(lesson, ref.file)
        .split('\n')
        .slice(ref.from - 1, ref.to);
      const shown = await block.locator('.ec-line').evaluateAll((lines) =>
        lines.map((line) => ({
          n: line.querySelector('.ln')?.textContent ?? '',
          code: (line.querySelector('.code')?.textContent ?? '').replace(/\n$/, ''),
        })),
      );
      expect(
        shown.map((l) => l.code),
        `${lesson.id} ${ref.file}:${ref.from}-${ref.to}`,
      ).toEqual(expected);
      expect(shown.map((l) => Number(l.n))).toEqual(expected.map((_, k) => ref.from + k));
      checked.push(`${lesson.id}:${ref.file}:${ref.from}`);
    }
  }
  expect(checked.length, 'the demo course has readalong code references').toBeGreaterThan(5);
});

/** Lessons whose docs have a mermaid block or a docs/diagrams/*.mmd file. */
function lessonsWithDiagrams(): Lesson[] {
  return lessons().filter((lesson) => {
    const docs = path.join(lessonDir(lesson), 'docs');
    const diagrams = path.join(docs, 'diagrams');
    const mmd =
      existsSync(diagrams) && readdirSync(diagrams, { withFileTypes: true }).some((f) => f.name.endsWith('.mmd'));
    return (
      mmd || ['readalong.md', 'notes.md'].some((f) => /^```mermaid/m.test(readFileSync(path.join(docs, f), 'utf8')))
    );
  });
}

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('codelabgen-theme', t), theme);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Every diagram figure shows one visible SVG with a non-empty box (none shows an error). */
async function expectVisibleDiagrams(page: Page, label: string): Promise<number> {
  const figures = page.locator('figure.diagram');
  const count = await figures.count();
  expect(count, `${label}: diagrams on the page`).toBeGreaterThan(0);
  await expect(page.locator('.diagram-error')).toHaveCount(0);
  for (let i = 0; i < count; i++) {
    const svg = figures.nth(i).locator('.diagram-svg svg').locator('visible=true');
    await expect(svg, `${label}: diagram ${i + 1}`).toHaveCount(1);
    const box = await svg.boundingBox();
    expect(box && box.width > 20 && box.height > 20, `${label}: diagram ${i + 1} box ${JSON.stringify(box)}`).toBe(
      true,
    );
  }
  return count;
}

for (const build of ['root', 'base'] as const) {
  test(`diagrams are visible SVGs in light and dark mode (${build === 'root' ? 'build-time SVG' : 'client-side mermaid, non-root base'})`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const withDiagrams = lessonsWithDiagrams();
    expect(withDiagrams.length).toBeGreaterThan(1);
    // Every lesson with build-time SVGs; two with client-side mermaid (each load parses ~3 MB of it).
    // Each lesson opens in the theme the one before stored, then is reloaded in the other (setTheme), so that no
    // load is only there to reach the site's localStorage: that is the home page's, once.
    await page.goto(siteUrl(build));
    await page.evaluate(() => localStorage.setItem('codelabgen-theme', 'light'));
    let stored: 'light' | 'dark' = 'light';
    for (const lesson of build === 'root' ? withDiagrams : [withDiagrams[0]!, withDiagrams.at(-1)!]) {
      await page.goto(lessonUrl(lesson, build));
      await expect(page.locator('html')).toHaveAttribute('data-theme', stored);
      for (const theme of stored === 'light' ? (['light', 'dark'] as const) : (['dark', 'light'] as const)) {
        if (theme !== stored) await setTheme(page, theme);
        stored = theme;
        await expectVisibleDiagrams(page, `${lesson.id} ${theme}`);
        if (build === 'root') {
          const other = theme === 'light' ? '.diagram-dark' : '.diagram-light';
          await expect(page.locator(`figure.diagram ${other}`).first()).toBeHidden();
        }
      }
    }
  });
}

/** The figures holding a diagram: the ones with a "Full size" button (code blocks are figures too). */
function diagramFigures(page: Page) {
  return page.getByRole('figure').filter({ has: page.getByRole('button', { name: /^Full size/ }) });
}

test('diagrams: every one named, whole in the page, labels never under 14 px at 1280 px, "Full size" opens a dialog that Esc closes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  let wide = 0;
  let unnamed = 0;
  // The first lesson with diagrams last at 1280 px: the page the "Full size" check below needs, as loaded.
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const lesson of width === 1280 ? lessonsWithDiagrams().reverse() : lessonsWithDiagrams().slice(0, 2)) {
      await page.goto(lessonUrl(lesson));
      const figures = diagramFigures(page);
      await expect(figures).toHaveCount(await page.locator('figure.diagram').count());
      for (let i = 0; i < (await figures.count()); i++) {
        const figure = figures.nth(i);
        await expect(figure, `${lesson.id} diagram ${i + 1} has a name`).toHaveAccessibleName(/\S/);
        if (((await figure.getAttribute('aria-label')) ?? '').startsWith('Diagram: ')) unnamed++;
        const smallest = await figure
          .locator('.diagram-svg svg')
          .locator('visible=true')
          .evaluate((svg) => {
            const scale = svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width;
            const labels = [...svg.querySelectorAll('text, foreignObject span')].filter(
              (e) => e.textContent!.trim() !== '',
            );
            return Math.min(...labels.map((e) => parseFloat(getComputedStyle(e).fontSize) * scale));
          });
        // On a phone a wide drawing is scaled to the screen, whole; "Full size" shows it larger (reader-rows.spec.ts).
        // At 1280 px labels are 14 px or more unless the drawing has taken all the room right of the text.
        const roomy = await figure.evaluate((f) => {
          const main = f.closest('main')!;
          const right = main.getBoundingClientRect().right - parseFloat(getComputedStyle(main).paddingRight);
          return f.getBoundingClientRect().right < right - 1;
        });
        if (width === 1280 && roomy)
          expect(smallest, `${lesson.id} diagram ${i + 1} at ${width} px: smallest label`).toBeGreaterThanOrEqual(
            13.95,
          );
        const fit = await figure.evaluate((f) => {
          const box = [...f.querySelectorAll<HTMLElement>('.diagram-svg')].find((b) => b.offsetParent !== null)!;
          const text = f.closest('.content')!.getBoundingClientRect();
          return {
            scrolls: box.scrollWidth > box.clientWidth + 1,
            wider: box.getBoundingClientRect().width > text.width + 1,
          };
        });
        expect(fit.scrolls, `${lesson.id} diagram ${i + 1} at ${width} px: whole, not scrolling sideways`).toBe(false);
        if (fit.wider) wide++;
      }
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${lesson.id} at ${width} px: the page does not scroll sideways`,
      ).toBe(true);
    }
  }
  expect(wide, 'the demo has diagrams wider than the text column').toBeGreaterThan(0);
  expect(unnamed, 'and diagrams without a title, named by their first labels').toBeGreaterThan(0);

  // Full size: the diagram at its natural width in a modal dialog; Esc closes it and puts it back.
  expect(page.url()).toBe(lessonUrl(lessonsWithDiagrams()[0]!));
  expect(page.viewportSize()?.width).toBe(1280);
  const figure = diagramFigures(page).first();
  const name = (await figure.getAttribute('aria-label')) ?? (await figure.locator('figcaption').textContent())!;
  const button = figure.getByRole('button', { name: `Full size: ${name}` });
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  const natural = await dialog
    .locator('svg')
    .evaluate((svg) => [svg.getBoundingClientRect().width, (svg as SVGSVGElement).viewBox.baseVal.width]);
  expect(Math.abs(natural[0]! - natural[1]!), 'shown at its natural size').toBeLessThanOrEqual(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await expect(figure.locator('.diagram-svg svg').locator('visible=true')).toHaveCount(1);
});

/** The URLs a page requests while loading (and for a moment after: mermaid loads from a module script). */
async function requestsOf(page: Page, url: string): Promise<string[]> {
  const requested: string[] = [];
  const listener = (request: { url(): string }) => requested.push(request.url());
  page.on('request', listener);
  await page.goto(url, { waitUntil: 'networkidle' });
  // Client-side diagrams import mermaid's chunks lazily: wait for them so none is counted for the next page.
  await expect(page.locator('pre.mermaid-source')).toHaveCount(0, { timeout: 60_000 });
  page.off('request', listener);
  return requested;
}

test('pages without diagrams request no mermaid script; a page with diagrams does (client-side build)', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const withDiagrams = lessonsWithDiagrams();
  for (const build of ['root', 'base'] as const) {
    const pages = [
      siteUrl(build),
      `${siteUrl(build)}glossary/`,
      `${siteUrl(build)}sources/`,
      ...(build === 'base' ? [`${siteUrl(build)}report/`] : []),
      `${siteUrl(build)}search/`,
    ];
    pages.push(
      ...lessons()
        .filter((l) => !withDiagrams.some((d) => d.id === l.id))
        .map((l) => lessonUrl(l, build)),
    );
    for (const url of pages) {
      const mermaid = (await requestsOf(page, url)).filter((r) => /mermaid/i.test(r));
      expect(mermaid, `${url} requests mermaid`).toEqual([]);
    }
  }
  // The watcher sees mermaid when it is loaded: the non-root build renders its diagrams in the browser.
  const loaded = await requestsOf(page, lessonUrl(withDiagrams[0]!, 'base'));
  expect(loaded.filter((r) => /mermaid/i.test(r)).length).toBeGreaterThan(0);
  // The build-time build never needs it.
  expect((await requestsOf(page, lessonUrl(withDiagrams[0]!, 'root'))).filter((r) => /mermaid/i.test(r))).toEqual([]);
  // What the client-side build serves: mermaid's prebuilt ESM copy under the base (not bundled by
  // Vite), loaded in strict mode.
  const base = path.join(process.env.E2E_DIR!, 'site-base');
  const html = readFileSync(
    path.join(base, 'lessons', `${withDiagrams[0]!.id}-${withDiagrams[0]!.slug}`, 'index.html'),
    'utf8',
  );
  expect(html).toContain('<pre class="mermaid-source">');
  expect(html).toContain('content="/course-site/_codelabgen/mermaid/mermaid.esm.min.mjs"');
  expect(html).toContain("securityLevel: 'strict'");
  expect(existsSync(path.join(base, '_codelabgen', 'mermaid', 'mermaid.esm.min.mjs'))).toBe(true);
  expect(
    readdirSync(path.join(base, '_astro')).filter((f) => /mermaid/i.test(f)),
    'Vite bundled mermaid',
  ).toEqual([]);
});

/** A word from one lesson's notes that no other lesson, nor the glossary, uses (so one page matches). */
function distinctiveNotesWord(): { lesson: Lesson; word: string } {
  const all = lessons();
  // Pagefind indexes the whole lesson page: docs and code.
  const text = (l: Lesson) =>
    readdirSync(lessonDir(l), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile() && !f.parentPath.includes('node_modules'))
      .map((f) => readFileSync(path.join(f.parentPath, f.name), 'utf8'))
      .join('\n')
      .toLowerCase();
  const glossary = readFileSync(path.join(courseDir(), '.codelabgen', 'glossary.jsonl'), 'utf8').toLowerCase();
  for (const lesson of [...all].reverse()) {
    const others =
      all
        .filter((l) => l !== lesson)
        .map(text)
        .join('\n') + glossary;
    const words = readLessonFile(lesson, 'docs/notes.md').match(/\b[a-z]{9,}\b/g) ?? [];
    const word = words.find((w) => !others.includes(w.slice(0, 7)));
    if (word) return { lesson, word };
  }
  throw new Error('no lesson notes word is unique to one lesson');
}

test("search finds a term from a lesson's notes and its result opens that lesson", async ({ page }) => {
  const { lesson, word } = distinctiveNotesWord();
  // The search page's ?q= link opens the search dialog with the query.
  await page.goto(`${siteUrl()}search/?q=${word}`);
  await expect(page.getByRole('searchbox')).toHaveValue(word);
  const first = page.locator('.search-results a').first();
  await expect(first).toBeVisible();
  await expect(first.locator('strong')).toContainText(lesson.title);
  await first.click();
  await expect(page).toHaveURL(new RegExp(`^${lessonUrl(lesson).replace(/[.?]/g, '\\$&')}`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${lesson.title}`);
});

test('lesson docs: an aside with its title, a code reference inside a list, an optimized image, a link to another lesson', async ({
  page,
}) => {
  const [first, second] = lessons();
  if (!first || !second) throw new Error('the demo course has two lessons');
  await page.goto(lessonUrl(second));
  const aside = page.getByRole('complementary', { name: 'Same output, unbounded memory' });
  await expect(aside).toBeVisible();
  await expect(aside.locator('.callout-title')).toHaveText('Same output, unbounded memory');
  await expect(aside).toHaveClass('callout callout-caution');
  // Its icon: a square drawn in the title's colour before it.
  const icon = await aside.getByText('Same output, unbounded memory').evaluate((t) => {
    const s = getComputedStyle(t, '::before');
    return { w: parseFloat(s.width), h: parseFloat(s.height), mask: s.maskImage || s.webkitMaskImage };
  });
  expect(icon.w).toBeGreaterThan(10);
  expect(icon.h).toBeCloseTo(icon.w, 0);
  expect(icon.mask).toMatch(/^url\("data:image\/svg\+xml/);
  // A code reference nested in a notes list item: highlighted, with its file title, inside the <li>.
  await expect(page.locator('[data-doc="docs/notes.md"] li figure.frame figcaption .title')).toHaveText(
    'src/write-all.mjs',
  );
  const image = page.getByRole('img', { name: /^Three chunks fill a buffer/ });
  await expect(image).toHaveAttribute('src', /^\/_astro\/buffer-fill\.[\w-]+\.webp$/);
  await expect(image).toHaveAttribute('width', '560');
  await expect(image).toHaveAttribute('height', '140');
  await expect(image).toHaveAttribute('loading', 'lazy');
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(560);
  await page
    .locator('[data-doc="docs/readalong.md"]')
    .getByRole('link', { name: `Lesson ${first.id}` })
    .click();
  await expect(page).toHaveURL(`${lessonUrl(first)}#readalong`);
  await expect(page.locator('h1')).toContainText(first.title);
});

test('under a base path, links between lessons and doc images carry the base', async ({ page }) => {
  const [first, second] = lessons();
  if (!first || !second) throw new Error('the demo course has two lessons');
  await page.goto(lessonUrl(second, 'base'));
  await expect(
    page.locator('[data-doc="docs/readalong.md"]').getByRole('link', { name: `Lesson ${first.id}` }),
  ).toHaveAttribute('href', `${new URL(lessonUrl(first, 'base')).pathname}#readalong`);
  const image = page.getByRole('img', { name: /^Three chunks fill a buffer/ });
  await expect(image).toHaveAttribute('src', /^\/course-site\/_astro\/buffer-fill\.[\w-]+\.webp$/);
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(560);
});
