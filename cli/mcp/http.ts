// `codelabgen mcp --http [HOST:]PORT`: the same server over Streamable HTTP (the SDK's transport),
// one MCP session per client, several at once, on one endpoint /mcp. A request is checked before the
// SDK sees it: its Host and Origin must name this machine's loopback or the bound host
// (DNS-rebinding protection), and when $CODELABGEN_MCP_TOKEN is set it must carry
// `Authorization: Bearer <token>`. Calls of every session go through the same command modules and
// store as stdio's, so they lock and log as any CLI writer does. A client whose connection drops
// while a call runs (a killed host sends no DELETE) and that does not come back within a grace
// period has its call cancelled, as a client that goes away over stdio has.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { printable, refuse } from '../../pipeline/index.ts';

/** A request body larger than this is refused (bytes), as a stdio line is. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Messages kept per session for a client that reconnects with Last-Event-ID. */
const KEPT_EVENTS = 1000;
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
/**
 * How long the calls of a request whose connection dropped keep running while the client may come
 * back (ms): a live client resumes the stream (GET with Last-Event-ID) after the retry interval the
 * server gave it; any request of its session within this time keeps the calls running.
 */
export const DROP_GRACE_MS = 5000;

export interface Listen {
  host: string;
  port: number;
}

/** `[HOST:]PORT` (HOST: a name, an IPv4 address or [IPv6]); 127.0.0.1 when no host is given. */
export function parseListen(text: string): Listen {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (!match || port > 65535)
    refuse(`--http "${printable(text)}": expected [HOST:]PORT, e.g. 8808 or 127.0.0.1:8808 (PORT 0: any free port)`);
  return { host: match[1] ?? '127.0.0.1', port };
}

/** The messages of one session's streams, so that a client reconnecting with Last-Event-ID misses none. */
function memoryEventStore(): EventStore {
  const events: Array<{ id: string; stream: string; message: JSONRPCMessage }> = [];
  let next = 0;
  return {
    storeEvent: async (stream, message) => {
      const id = `${stream}_${(next += 1)}`;
      events.push({ id, stream, message });
      if (events.length > KEPT_EVENTS) events.shift();
      return id;
    },
    getStreamIdForEventId: async (id) => events.find((event) => event.id === id)?.stream,
    replayEventsAfter: async (lastId, { send }) => {
      const at = events.findIndex((event) => event.id === lastId);
      const stream = events[at]?.stream ?? lastId.slice(0, lastId.lastIndexOf('_'));
      for (const event of events.slice(at + 1)) if (event.stream === stream) await send(event.id, event.message);
      return stream;
    },
  };
}

export interface HttpServerOptions extends Listen {
  /** $CODELABGEN_MCP_TOKEN: when set, every request must carry it as a bearer token. */
  token: string | undefined;
  /** A new MCP server for a new session; `closing` aborts when the session ends. */
  makeServer(closing: AbortSignal): McpServer;
  /** Milliseconds a client waits before it reconnects to a stream the server closed (SSE polling). */
  retryInterval?: number;
  /** Milliseconds before the calls of a dropped connection are cancelled (default DROP_GRACE_MS). */
  dropGraceMs?: number;
}

export interface HttpServer {
  url: string;
  sessions(): number;
  /** Ends every session (cancelling calls in flight) and stops listening. */
  close(): Promise<void>;
}

function hostnameOf(value: string, withScheme: boolean): string | null {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname;
  } catch {
    return null;
  }
}

function reject(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: http.IncomingMessage): Promise<{ body: unknown } | { error: string; status: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      return { error: `Invalid Request: a body larger than ${MAX_BODY_BYTES} bytes`, status: 413 };
    chunks.push(chunk);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { error: `Parse error: ${(error as Error).message}`, status: 400 };
  }
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  closing: AbortController;
  /** Requests the session's client has sent (so a drop can tell whether the client came back). */
  requests: number;
}

/** The ids of the requests (not notifications or responses) in a POST body: one message or a batch. */
function requestIds(body: unknown): Array<string | number> {
  return (Array.isArray(body) ? body : [body]).flatMap((message) => {
    if (typeof message !== 'object' || message === null || typeof (message as { method?: unknown }).method !== 'string')
      return [];
    const id = (message as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}

/**
 * Cancels the calls a POST carries when its connection drops before their answers were sent (the
 * client was killed, its host went away) and the client does not come back within `graceMs`: the
 * calls end as by notifications/cancelled (verify stops its tests and records nothing). A stream the
 * server ended itself (answered, or closed for polling) is not a drop.
 */
function cancelOnDrop(session: Session, res: http.ServerResponse, ids: Array<string | number>, graceMs: number): void {
  if (ids.length === 0) return;
  res.once('close', () => {
    if (res.writableEnded) return;
    const requestsAtDrop = session.requests;
    setTimeout(() => {
      if (session.closing.signal.aborted || session.requests > requestsAtDrop) return; // ended (its calls are cancelled), or the client came back
      for (const requestId of ids) {
        // Handled as the client's own cancel; a call already answered is not found and nothing happens.
        session.transport.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId, reason: 'the client dropped its connection and did not come back' },
        });
      }
    }, graceMs).unref();
  });
}

export async function serveHttp(options: HttpServerOptions): Promise<HttpServer> {
  const allowed = new Set([...LOOPBACK, ...(['0.0.0.0', '[::]', '::'].includes(options.host) ? [] : [options.host])]);
  const sessions = new Map<string, Session>();
  const graceMs = options.dropGraceMs ?? DROP_GRACE_MS;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const host = hostnameOf(req.headers.host ?? '', false);
    if (host === null || !allowed.has(host))
      return reject(
        res,
        403,
        `Forbidden: Host "${printable(req.headers.host ?? '')}" is not this server (DNS-rebinding protection)`,
      );
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(hostnameOf(origin, true) ?? ''))
      return reject(res, 403, `Forbidden: Origin "${printable(origin)}" is not this server (DNS-rebinding protection)`);
    if (options.token !== undefined && !sameToken(req.headers.authorization ?? '', `Bearer ${options.token}`)) {
      return reject(res, 401, 'Unauthorized: a bearer token ($CODELABGEN_MCP_TOKEN) is required', {
        'www-authenticate': 'Bearer',
      });
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp')
      return reject(res, 404, 'Not Found: the MCP endpoint is /mcp');
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req);
      if ('error' in read) return reject(res, read.status, read.error);
      body = read.body;
    }
    const id = req.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (session) {
      session.requests += 1;
      if (req.method === 'POST') cancelOnDrop(session, res, requestIds(body), graceMs);
      return session.transport.handleRequest(req, res, body);
    }
    if (typeof id === 'string') return reject(res, 404, 'Not Found: no such session (it ended); initialize a new one');
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return reject(res, 400, 'Bad Request: no Mcp-Session-Id; the first request of a session is initialize');
    const closing = new AbortController();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: memoryEventStore(),
      ...(options.retryInterval !== undefined && { retryInterval: options.retryInterval }),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server, closing, requests: 1 });
      },
    });
    transport.onclose = () => {
      // The session ended (DELETE, or the server stops): its calls in flight are cancelled.
      closing.abort();
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = options.makeServer(closing.signal);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const listener = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reject(res, 500, `Internal error: ${(error as Error).message}`);
      else res.end();
    });
  });
  // Clients keep a connection open as long as the server says (Keep-Alive: timeout=N): a short
  // timeout lets a client that is done exit at once; an SSE stream is a request in progress, not idle.
  listener.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, rejectListen) => {
    listener.once('error', rejectListen);
    listener.listen(options.port, options.host.replace(/^\[(.*)\]$/, '$1'), () => resolve());
  });
  const address = listener.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    sessions: () => sessions.size,
    close: async () => {
      for (const session of [...sessions.values()]) {
        session.closing.abort();
        await session.server.close().catch(() => {});
      }
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
