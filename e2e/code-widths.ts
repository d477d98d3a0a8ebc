// Test helper (cli/package.test.ts): a built site's page opened in Chromium at 1280 px, served from
// its folder, with the width and frame of every code block (Expressive Code's `pre`) and a screenshot.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright';

const TYPES: Record<string, string> = {
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Width (CSS px) and frame of each of the page's code blocks, in page order; the screenshot goes to `screenshot`. */
export async function codeBlockWidths(
  chromiumPath: string,
  dist: string,
  base: string,
  page: string,
  screenshot: string,
): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath });
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
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
    return widths;
  } finally {
    await browser.close();
  }
}
