// site dev's live /progress/ board: one followed course per server (pipeline/progress/source.ts),
// a server-sent events stream at `<base><prefix>/_codelabgen/progress.events` that sends the
// board's HTML after every change, and the board the page renders (drafts builds read it once).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { courseAt } from '../course/course.ts';
import { GATE_REVIEW, type Board, type ReviewArtifact } from '../progress/board.ts';
import { followProgress, readProgressBoard, type ProgressSource } from '../progress/source.ts';
import { renderBoardHtml, type BoardLinks } from './progress-html.ts';

export const PROGRESS_EVENTS = '_codelabgen/progress.events';

/** The followed courses of this process, by root (the page and the middleware share them). */
const followed = new Map<string, ProgressSource>();

/** The board's HTML for the page: the live one in site dev, else read once. */
export function progressBoardHtml(root: string, links: BoardLinks): string | null {
  const source = followed.get(root);
  const board = source ? source.board() : readProgressBoard(courseAt(root));
  return board === null ? null : renderBoardHtml(board, links);
}

/** The files a gate asks the user to review, each with its page (`progress/<slug>`). */
export const REVIEW_ARTIFACTS: readonly ReviewArtifact[] = Object.values(GATE_REVIEW).flat();

/** The review page a file path has, by its slug: `progress/overview/`; null for a file with none. */
export function reviewPagePath(file: string): string | null {
  const found = REVIEW_ARTIFACTS.find((artifact) => artifact.path === file);
  return found ? `progress/${found.slug}/` : null;
}

type Next = () => void;

/**
 * Follows the course and answers `url` with a server-sent events stream: an `event: board` with
 * `{seq, html}` after each change, and a comment every 15 s so proxies keep it open.
 */
export function serveProgress(
  root: string,
  url: string,
  links: BoardLinks,
): { middleware: (req: IncomingMessage, res: ServerResponse, next: Next) => void; close(): void } {
  const clients = new Set<ServerResponse>();
  let source: ProgressSource | undefined;
  const send = (text: string) => {
    for (const res of clients) res.write(text);
  };
  const boardEvent = (board: Board) =>
    `event: board\ndata: ${JSON.stringify({ seq: board.seq, html: renderBoardHtml(board, links) })}\n\n`;
  const start = () => {
    if (source !== undefined) return;
    try {
      source = followProgress(courseAt(root), { onBoard: (board) => send(boardEvent(board)) });
      followed.set(root, source);
    } catch {
      source = undefined; // no state yet: the next stream request tries again
    }
  };
  // Followed from the first stream on: until a board page is open, a change costs nothing here.
  const keepAlive = setInterval(() => send(': keep-alive\n\n'), 15_000);
  keepAlive.unref();
  return {
    middleware(req, res, next) {
      if (req.url?.split('?')[0] !== url) return next();
      start();
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      res.write('retry: 1000\n\n');
      // The board now: the page may have been made before this stream began following the course.
      if (source !== undefined) res.write(boardEvent(source.board()));
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    close() {
      clearInterval(keepAlive);
      for (const res of clients) res.end();
      clients.clear();
      source?.close();
      if (followed.get(root) === source) followed.delete(root);
      source = undefined;
    },
  };
}
