// Page weight: HTML, CSS and JS bytes each page loads (own HTML plus the assets it links), and the
// list of built pages (for the build summary and tests).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface PageWeight {
  page: string;
  html: number;
  css: number;
  js: number;
}

export function listPages(outDir: string): string[] {
  const pages: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'pagefind' && entry.name !== '_codelabgen' && entry.name !== '_astro') walk(full);
      } else if (entry.name.endsWith('.html')) pages.push(path.relative(outDir, full).split(path.sep).join('/'));
    }
  };
  walk(outDir);
  return pages.sort();
}

/** Bytes per page: inline scripts and styles count as JS/CSS too. */
export function pageWeights(outDir: string, base: string): PageWeight[] {
  return listPages(outDir).map((page) => {
    const html = readFileSync(path.join(outDir, page), 'utf8');
    let css = 0;
    let js = 0;
    for (const m of html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g))
      css += assetBytes(outDir, base, m[1] ?? '');
    for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) js += assetBytes(outDir, base, m[1] ?? '');
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g))
      js += Buffer.byteLength(m[1] ?? '');
    for (const m of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) css += Buffer.byteLength(m[1] ?? '');
    return { page, html: Buffer.byteLength(html), css, js };
  });
}

function assetBytes(outDir: string, base: string, url: string): number {
  if (/^[a-z]+:/i.test(url)) return 0;
  const local = (url.startsWith(base) ? url.slice(base.length) : url).replace(/[?#].*$/, ''); // page.js?v=...
  try {
    return statSync(path.join(outDir, local.replace(/^\/+/, ''))).size;
  } catch {
    return 0; // not part of the build (e.g. the search UI loaded later)
  }
}
