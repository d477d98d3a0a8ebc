// Crawls every page of both builds (base `/` and a non-root base) in the browser: every same-origin
// href/src answers 200, every #fragment exists on its page, nothing the page loads fails, no console
// error (fixtures.ts), and no link escapes the base path.
import type { APIRequestContext, Page } from '@playwright/test';
import { lessons, siteUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

interface Found {
  links: string[];
  assets: string[];
  ids: string[];
}

async function collect(page: Page): Promise<Found> {
  return page.evaluate(() => {
    const abs = (value: string) => new URL(value, location.href).href;
    const links = [
      ...[...document.querySelectorAll('a[href]')].map((a) => abs(a.getAttribute('href')!)),
      ...[...document.querySelectorAll('form[action]')].map((f) => abs(f.getAttribute('action')!)),
    ];
    const assets = [
      ...[...document.querySelectorAll('link[href]')].map((l) => abs(l.getAttribute('href')!)),
      ...[...document.querySelectorAll('script[src], img[src], source[src], iframe[src]')].map((s) =>
        abs(s.getAttribute('src')!),
      ),
      ...[...document.querySelectorAll('meta[name="codelabgen-mermaid"]')].map((m) => abs(m.getAttribute('content')!)),
    ];
    return { links, assets, ids: [...document.querySelectorAll('[id]')].map((e) => e.id) };
  });
}

async function crawl(
  page: Page,
  request: APIRequestContext,
  start: string,
): Promise<{ pages: string[]; problems: string[] }> {
  const origin = new URL(start).origin;
  const queue = [start];
  const pages = new Map<string, Set<string>>();
  const checked = new Map<string, number>();
  const fragments: Array<{ from: string; url: string }> = [];
  const problems: string[] = [];
  page.on('response', (r) => r.status() >= 400 && problems.push(`${page.url()} loaded ${r.url()}: ${r.status()}`));
  page.on('requestfailed', (r) => problems.push(`${page.url()} could not load ${r.url()}: ${r.failure()?.errorText}`));
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (pages.has(url)) continue;
    const response = await page.goto(url, { waitUntil: 'networkidle' });
    if (response?.status() !== 200) problems.push(`${url}: status ${response?.status()}`);
    // Client-side diagrams load mermaid's chunks after the page: let them finish before moving on.
    await expect(page.locator('pre.mermaid-source')).toHaveCount(0, { timeout: 60_000 });
    const found = await collect(page);
    pages.set(url, new Set(found.ids));
    for (const target of [...found.links, ...found.assets]) {
      const parsed = new URL(target);
      if (parsed.origin !== origin) continue;
      if (!parsed.pathname.startsWith(new URL(start).pathname))
        problems.push(`${url} links outside the base: ${target}`);
      if (parsed.hash) fragments.push({ from: url, url: target });
      parsed.hash = '';
      const bare = parsed.href;
      if (!checked.has(bare)) checked.set(bare, (await request.get(bare, { maxRedirects: 0 })).status());
      if (checked.get(bare) !== 200) problems.push(`${url} → ${bare}: status ${checked.get(bare)}`);
      else if (
        found.links.includes(target) &&
        !parsed.search &&
        (parsed.pathname.endsWith('/') || parsed.pathname.endsWith('.html'))
      )
        queue.push(bare);
    }
  }
  for (const { from, url } of fragments) {
    const u = new URL(url);
    const id = decodeURIComponent(u.hash.slice(1));
    u.hash = '';
    if (pages.has(u.href) && !pages.get(u.href)!.has(id)) problems.push(`${from} → ${url}: no element with id "${id}"`);
  }
  return { pages: [...pages.keys()], problems: [...new Set(problems)] };
}

for (const build of ['root', 'base'] as const) {
  test(`crawl: no broken internal link or asset, no console error (${build === 'root' ? 'base /' : 'non-root base'})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const { pages, problems } = await crawl(page, request, siteUrl(build));
    expect(problems).toEqual([]);
    // Only the drafts build (base) has the report and the progress board: learner builds leave them out. Search is a dialog;
    // the search/ page (for ?q= links, linked from the 404 page) is not linked from the pages crawled.
    const expected = [
      '',
      'glossary/',
      'sources/',
      ...(build === 'base' ? ['report/', 'progress/'] : []),
      ...lessons().map((l) => `lessons/${l.id}-${l.slug}/`),
    ].map((p) => siteUrl(build) + p);
    expect(pages.sort()).toEqual(expect.arrayContaining(expected));
  });
}
