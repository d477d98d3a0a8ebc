// A tiny static file server for a built site mounted under its base path (e.g. /course-site/),
// like static hosting: `dir/` serves `dir/index.html`, anything outside the base or missing is a 404, and
// files may be kept 10 minutes as GitHub Pages answers (docs/testing.md, "Where the cores go").
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

export interface StaticSite {
  url: string;
  close(): Promise<void>;
}

/** Serves `root` under `base` on a free port of 127.0.0.1; resolves once listening. */
export async function serveStatic(root: string, base: string): Promise<StaticSite> {
  const server = createServer((req, res) => {
    const file = resolveFile(root, base, new URL(req.url ?? '/', 'http://x').pathname);
    if (file === null) {
      const notFound = path.join(root, '404.html');
      res.writeHead(404, { 'content-type': TYPES['.html'] });
      if (existsSync(notFound)) createReadStream(notFound).pipe(res);
      else res.end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'max-age=600',
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}${base}`, close: () => closeServer(server) };
}

/** The file a URL path names, or null (outside the base, traversal, missing). */
export function resolveFile(root: string, base: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (!decoded.startsWith(base)) return null;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded.slice(base.length)}`)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  if (!existsSync(file)) return null;
  if (!statSync(file).isDirectory()) return file;
  if (!decoded.endsWith('/')) return null; // static hosts redirect; the site must link with the slash
  const index = path.join(file, 'index.html');
  return existsSync(index) ? index : null;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
