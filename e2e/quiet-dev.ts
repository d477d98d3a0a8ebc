// Test helper (cli/site-dev-quiet.test.ts, cli/package.test.ts): a healthy course's `site dev` page
// and every stylesheet and script it links answer 200, and the server logs no WARN or ERROR line.
import assert from 'node:assert/strict';

/** Fetches `url` and each local stylesheet and script it links; fails on any answer but 200. */
export async function fetchPageAndAssets(url: string): Promise<string[]> {
  const page = await fetch(url);
  assert.equal(page.status, 200, url);
  const html = await page.text();
  const links = [...html.matchAll(/<(?:link[^>]*\brel="stylesheet"[^>]*\bhref|script[^>]*\bsrc)="(\/[^"]+)"/g)].map(
    (m) => m[1]!,
  );
  for (const link of links) {
    const asset = await fetch(new URL(link, url));
    assert.equal(asset.status, 200, `${link} answered ${asset.status}`);
  }
  return links;
}

/** The server's WARN and ERROR lines (Astro's `[WARN]`, `[ERROR]`, Vite's errors). */
export function noisyLines(log: string): string[] {
  return log.split('\n').filter((line) => /\[(WARN|ERROR)\]|\berror\b.*\bvite\b|allow list/i.test(line));
}
