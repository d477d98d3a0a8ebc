// `site dev` answers a request for a file it does not serve (Vite's /@fs allow-list) with a 403, and
// Vite's own 403 page lists the allow-list: the absolute paths of the user's cache and of the
// folder codelabgen is installed in, shown to any client (with --host, the network). This Connect
// middleware, first in line, swaps the body of every 403 for one that names no path; the terminal
// still shows Vite's full message to the user who runs the server. It also answers a URL whose path
// does not decode (a stray `%`) with a 400 itself: Astro's middlewares threw on it, and Vite's error
// page, a 500, showed the stack, naming the folder codelabgen is installed in.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';

/** What a client that asked for a file outside the allow-list reads. */
export const RESTRICTED_BODY =
  '<!doctype html>\n<title>403 Restricted</title>\n<h1>403 Restricted</h1>\n' +
  '<p>codelabgen site dev does not serve this file.</p>\n';

/** What a client whose URL's path does not decode reads. */
export const BAD_URL_BODY =
  '<!doctype html>\n<title>400 Bad Request</title>\n<h1>400 Bad Request</h1>\n' +
  '<p>The address holds a % that is not followed by two hexadecimal digits of UTF-8.</p>\n';

/** Whether the path of a request's URL decodes (each %XX a byte of UTF-8). */
export function decodablePath(url: string): boolean {
  try {
    decodeURIComponent(url.split(/[?#]/)[0] ?? '');
    return true;
  } catch {
    return false;
  }
}

export function restrictedGuard(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  if (req.url !== undefined && !decodablePath(req.url)) {
    res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(BAD_URL_BODY);
    return;
  }
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => (res.statusCode === 403 ? true : write(...args))) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (res.statusCode !== 403) return end(...args);
    if (!res.headersSent) {
      res.removeHeader('content-length');
      res.setHeader('content-type', 'text/html; charset=utf-8');
    }
    const callback = args.find((arg) => typeof arg === 'function');
    return callback === undefined ? end(RESTRICTED_BODY) : end(RESTRICTED_BODY, callback);
  }) as typeof res.end;
  next();
}

/**
 * Puts the guard first of all the dev server's middlewares, so it sees every request and answer:
 * after Vite's and Astro's are in place (a post hook; Astro puts its own at the front in its post
 * hook, which runs before this plugin's), not in astro:server:setup, which runs before them.
 */
export function restrictedGuardPlugin(): Plugin {
  return {
    name: 'codelabgen:restricted-guard',
    configureServer(server) {
      return () => {
        server.middlewares.stack.unshift({ route: '', handle: restrictedGuard });
      };
    },
  };
}
