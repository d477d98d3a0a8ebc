// In `site dev` (and a host's `astro dev`), doc images are served by Vite straight from the course
// folder, not from a sanitized build (pipeline/site/svg-sanitize.ts). An SVG opened on the dev
// server's origin would run its scripts there, so every SVG response carries a Content-Security-Policy
// that runs nothing and loads nothing (docs/security.md).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Scripts, plugins, forms and every outside fetch are off; inline styles and data: images still draw. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** Whether a request asks for an SVG file: its path ends in .svg, or it is an image endpoint's request for one. */
export function isSvgRequest(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://dev.invalid');
  } catch {
    return false;
  }
  const svg = (pathname: string) => {
    try {
      return /\.svg$/i.test(decodeURIComponent(pathname));
    } catch {
      return /\.svg$/i.test(pathname);
    }
  };
  if (svg(parsed.pathname)) return true;
  const href = parsed.searchParams.get('href');
  return href !== null && svg(href.split(/[?#]/)[0] ?? '');
}

/** A Connect middleware: SVG responses get SVG_POLICY, whoever serves them after it. */
export function svgDevGuard(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (req.url !== undefined && isSvgRequest(req.url)) res.setHeader('content-security-policy', SVG_POLICY);
  next();
}
