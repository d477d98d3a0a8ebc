// Test helper (cli/package.test.ts): built sites' pages opened in one Chromium at 1280 px, each served
// from its folder, with the width and frame of every code block (Expressive Code's `pre`) and a screenshot.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright';

const TYPES: Record<string, string> = {
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A built site's page: its folder, the base it was built under, the page below it, where its screenshot goes. */
export interface BuiltPage {
  dist: string;
  base: string;
  page: string;
  screenshot: string;
}

/** Width (CSS px) and frame of each code block (in page order) of each page, in one browser; screenshots as asked. */
export async function codeBlockWidths(chromiumPath: string, pages: BuiltPage[]): Promise<string[][]> {
  const browser = await chromium.launch({ executablePath: chromiumPath });
  try {
    const widths: string[][] = [];
    for (const page of pages) widths.push(await measure(await browser.newPage(VIEWPORT), page));
    return widths;
  } finally {
    await browser.close();
  }
}

const VIEWPORT = { viewport: { width: 1280, height: 900 } };

async function measure(tab: Page, { dist, base, page, screenshot }: BuiltPage): Promise<string[]> {
  await tab.route('http://site.test/**', (route) => {
    const url = decodeURIComponent(new URL(route.request().url()).pathname);
    if (!url.startsWith(base)) return route.fulfill({ status: 404, body: '' });
    let file = path.join(dist, url.slice(base.length));
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!existsSync(file)) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({
      status: 200,
      body: readFileSync(file),
      contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
  });
  await tab.goto(`http://site.test${base}${page}`);
  // Each block's width and its frame (the border Expressive Code draws around it).
  const widths = await tab.$$eval('.expressive-code pre', (pres) =>
    pres.map(
      (pre) => `${Math.round(pre.getBoundingClientRect().width)} px, border ${getComputedStyle(pre).borderTopWidth}`,
    ),
  );
  mkdirSync(path.dirname(screenshot), { recursive: true });
  await tab.screenshot({ path: screenshot, fullPage: true });
  await tab.close();
  return widths;
}
