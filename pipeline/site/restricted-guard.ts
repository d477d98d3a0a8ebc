// `site dev` answers a request for a file it does not serve (Vite's /@fs allow-list) with a 403, and
// Vite's own 403 page lists the allow-list: the absolute paths of the user's cache and of the
// folder codelabgen is installed in, shown to any client (with --host, the network). This Connect
// middleware, first in line, swaps the body of every 403 for one that names no path; the terminal
// still shows Vite's full message to the user who runs the server.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a client that asked for a file outside the allow-list reads. */
export const RESTRICTED_BODY =
  '<!doctype html>\n<title>403 Restricted</title>\n<h1>403 Restricted</h1>\n' +
  '<p>codelabgen site dev does not serve this file.</p>\n';

export function restrictedGuard(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
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
