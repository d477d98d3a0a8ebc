// `codelabgen mcp --http [HOST:]PORT`: the same server over Streamable HTTP (the SDK's transport),
// one MCP session per client, several at once, on one endpoint /mcp. It fails closed: an address
// other than loopback is served only with $CODELABGEN_MCP_TOKEN set. A request is checked before the
// SDK sees it: its Host and Origin must name the bound address (loopback names only for a loopback
// bind; DNS-rebinding protection), and with a token it must carry `Authorization: Bearer <token>`.
// Calls of every session go through the same command modules and store as stdio's, so they lock and
// log as any CLI writer does. A client whose connection drops while a call runs (a killed host sends
// no DELETE) and that does not come back within a grace period has its call cancelled, as a client
// that goes away over stdio has; a session idle past SESSION_IDLE_MS with no request open is closed.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import type { Duplex } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { printable, refuse } from '../../pipeline/index.ts';

/** ms before a dropped connection is seen within which a request of the same session still counts as the client's return. */
const RETURN_RACE_MS = 1000;
/**
 * A drop's grace timer that runs this much later than due (ms) found the server starved of CPU: Node
 * runs due timers before it reads the sockets, so a client's return sent meanwhile may still be unread.
 * The server then looks again LOOK_AGAIN_MS later (after reading), up to MAX_LOOKS times.
 */
const LATE_MS = 500;
const LOOK_AGAIN_MS = 250;
const MAX_LOOKS = 4;
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
/**
 * A session with no request open and none for this long is abandoned (its client went away without
 * DELETE) and is closed, its memory freed (ms). A live client keeps its event stream (GET) open.
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

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

/** Whether HOST (as --http gives it) is a loopback address or `localhost`: only these are served without a token. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** Refuses to serve an address other than loopback without a bearer token: a service reachable from elsewhere fails closed. */
export function requireTokenOffLoopback(listen: Listen, token: string | undefined): void {
  if (token !== undefined || isLoopbackHost(listen.host)) return;
  refuse(
    `--http ${printable(listen.host)}:${listen.port}: serving an address other than loopback needs a bearer token; set CODELABGEN_MCP_TOKEN`,
    'e.g. CODELABGEN_MCP_TOKEN="$(openssl rand -hex 32)" codelabgen mcp --http ...; clients then send Authorization: Bearer <token>',
    'or serve this machine only: --http 127.0.0.1:PORT (the host when none is given)',
  );
}

const WILDCARDS = ['0.0.0.0', '[::]', '::'];

/**
 * The names a request's Host and Origin may give: for a loopback bind the loopback names and the
 * host given; for another address only that address, and for 0.0.0.0 or [::] this machine's own
 * addresses (not loopback ones) and its host name. Never `localhost` off loopback: a client
 * elsewhere could claim it.
 */
export function allowedHostNames(host: string, machine = machineNames()): Set<string> {
  const given = host.toLowerCase();
  if (isLoopbackHost(given)) return new Set([...LOOPBACK, given]);
  return new Set(WILDCARDS.includes(given) ? machine : [given]);
}

/** This machine's non-loopback addresses ([IPv6] as Host gives them) and its host name. */
function machineNames(): string[] {
  const addresses = Object.values(os.networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && !address.internal)
    .map((address) => (address!.family === 'IPv6' ? `[${address!.address.split('%')[0]}]` : address!.address));
  return [...addresses, os.hostname().toLowerCase()];
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
  /** Milliseconds a session may sit with no request open before it is closed (default SESSION_IDLE_MS). */
  sessionIdleMs?: number;
  /** The clock idle sessions are measured with, in ms (tests move it). */
  clock?: () => number;
}

export interface HttpServer {
  url: string;
  sessions(): number;
  /** Closes the sessions idle past the timeout now (a timer does it too); returns how many. */
  closeIdleSessions(): Promise<number>;
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

/**
 * A refusal before any MCP server sees the request, as JSON-RPC (every answer of this module's own goes
 * through it or rejectUnparsed(); cli/scan-http-answers.test.ts): -32700 for a body that is not JSON,
 * -32600 for one too large to take, -32603 for an internal error, and otherwise -32000, what the
 * SDK's own transport answers for its refusals (host, origin, token, session).
 */
function reject(
  res: http.ServerResponse,
  status: number,
  message: string,
  { headers = {}, code = -32000 }: { headers?: Record<string, string>; code?: number } = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(errorBody(code, message));
}

function errorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * A request Node's parser refuses before any handler runs (a bad request line or header, headers too
 * large): the same JSON-RPC error as reject()'s, -32600, where Node would answer a bare 400 or 431 with
 * no body, which a client cannot read. Only the parser's code is named, never the bytes it read.
 */
function rejectUnparsed(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own answer: only on a connection nothing was written to yet (never inside another answer).
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket).bytesWritten !== 0) {
    socket.destroy();
    return;
  }
  const [status, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  const body = errorBody(
    ErrorCode.InvalidRequest,
    `Invalid Request: not HTTP this server can read (${error.code ?? 'parse error'})`,
  );
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(
  req: http.IncomingMessage,
): Promise<{ body: unknown } | { error: string; status: number; code: ErrorCode }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      return {
        error: `Invalid Request: a body larger than ${MAX_BODY_BYTES} bytes`,
        status: 413,
        code: ErrorCode.InvalidRequest,
      };
    chunks.push(chunk);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { error: `Parse error: ${(error as Error).message}`, status: 400, code: ErrorCode.ParseError };
  }
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  closing: AbortController;
  /** Requests the session's client has sent (so a drop can tell whether the client came back). */
  requests: number;
  /** When its last request came (Date.now()): a request that came just before a drop was seen is a return. */
  lastRequestAt: number;
  /** Its GET requests with a Last-Event-ID: streams it resumed (a resume is a return, whenever it was seen). */
  resumes: number;
  /** Its requests whose responses are still open (an event stream counts while it lasts). */
  open: number;
  /** When its last request came or its last response closed (ms, the server's clock). */
  lastActive: number;
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
 * server ended itself (answered, or closed for polling) is not a drop. A client that reconnects at
 * once may have its new request handled before the old connection's close is seen: a request after
 * this POST that came up to RETURN_RACE_MS before the drop counts as coming back too, and so does a
 * stream resumed (Last-Event-ID) after this POST came, however long before the drop was seen (a
 * server starved of CPU can see the close seconds late). A grace timer that runs late looks again once
 * the server has read what waits (LATE_MS).
 */
export function cancelOnDrop(
  session: Pick<Session, 'requests' | 'lastRequestAt' | 'resumes' | 'closing'> & {
    transport: { onmessage?: ((message: JSONRPCMessage) => void) | undefined };
  },
  res: { once(event: 'close', listener: () => void): unknown; readonly writableEnded: boolean },
  ids: Array<string | number>,
  graceMs: number,
): void {
  if (ids.length === 0) return;
  const mine = session.requests; // this POST counted
  const resumesBefore = session.resumes;
  res.once('close', () => {
    if (res.writableEnded) return;
    const requestsAtDrop = session.requests;
    const droppedAt = Date.now();
    const decide = (due: number, looks: number) => {
      if (Date.now() - due > LATE_MS && looks < MAX_LOOKS) {
        setTimeout(() => decide(Date.now() + LOOK_AGAIN_MS, looks + 1), LOOK_AGAIN_MS).unref();
        return;
      }
      const cameBack =
        session.requests > requestsAtDrop ||
        session.resumes > resumesBefore ||
        (session.requests > mine && session.lastRequestAt >= droppedAt - RETURN_RACE_MS);
      if (session.closing.signal.aborted || cameBack) return; // ended (its calls are cancelled), or the client came back
      for (const requestId of ids) {
        // Handled as the client's own cancel; a call already answered is not found and nothing happens.
        session.transport.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId, reason: 'the client dropped its connection and did not come back' },
        });
      }
    };
    setTimeout(() => decide(droppedAt + graceMs, 0), graceMs).unref();
  });
}

/** A session is abandoned when none of its requests is open and the last one ended `idleMs` or more ago. */
export function abandoned(session: Pick<Session, 'open' | 'lastActive'>, now: number, idleMs: number): boolean {
  return session.open === 0 && now - session.lastActive >= idleMs;
}

export async function serveHttp(options: HttpServerOptions): Promise<HttpServer> {
  requireTokenOffLoopback(options, options.token);
  const allowed = allowedHostNames(options.host);
  const sessions = new Map<string, Session>();
  const graceMs = options.dropGraceMs ?? DROP_GRACE_MS;
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  const now = options.clock ?? Date.now;
  /** Counts the response open on its session until it closes. */
  const track = (res: http.ServerResponse, sessionOf: () => Session | undefined) => {
    const session = sessionOf();
    if (session) [session.open, session.lastActive] = [session.open + 1, now()];
    res.once('close', () => {
      const ended = sessionOf();
      if (ended) [ended.open, ended.lastActive] = [Math.max(0, ended.open - 1), now()];
    });
  };
  const closeIdleSessions = async (): Promise<number> => {
    const idle = [...sessions.values()].filter((session) => abandoned(session, now(), idleMs));
    for (const session of idle) {
      session.closing.abort();
      await session.server.close().catch(() => {}); // closes its transport, which drops it from `sessions`
    }
    return idle.length;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    // A Host that is not a bare host[:port] is no name of this server (the SDK's request adapter answered
    // `127.0.0.1:PORT/x` with a bodiless 400).
    const given = req.headers.host ?? '';
    const host = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/.test(given) ? hostnameOf(given, false) : null;
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
        headers: { 'www-authenticate': 'Bearer' },
      });
    }
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp')
      return reject(res, 404, 'Not Found: the MCP endpoint is /mcp');
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req);
      if ('error' in read) return reject(res, read.status, read.error, { code: read.code });
      body = read.body;
    }
    const id = req.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id) : undefined;
    if (session) {
      session.requests += 1;
      session.lastRequestAt = Date.now();
      if (req.method === 'GET' && req.headers['last-event-id'] !== undefined) session.resumes += 1;
      track(res, () => session);
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
        sessions.set(sessionId, {
          transport,
          server,
          closing,
          requests: 1,
          lastRequestAt: Date.now(),
          resumes: 0,
          open: 1,
          lastActive: now(),
        });
      },
    });
    transport.onclose = () => {
      // The session ended (DELETE, or the server stops): its calls in flight are cancelled.
      closing.abort();
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = options.makeServer(closing.signal);
    await server.connect(transport);
    // Opened as 1 when the session is made; closing this response counts it down.
    track(res, () => (transport.sessionId === undefined ? undefined : sessions.get(transport.sessionId)));
    await transport.handleRequest(req, res, body);
  };

  // A request without Host is refused by handle() as any other Host, as JSON-RPC (Node's own refusal has no body).
  const listener = http.createServer({ requireHostHeader: false }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        reject(res, 500, `Internal error: ${(error as Error).message}`, { code: ErrorCode.InternalError });
      else res.end();
    });
  });
  // Clients keep a connection open as long as the server says (Keep-Alive: timeout=N), less a margin
  // (undici: 2 s). At 1 s, a loaded machine's client sent its next request on a socket the server
  // was closing (ECONNRESET on connect's `initialized`); 5 s (Node's default) leaves the margin. An SSE
  // stream is a request in progress, not idle.
  listener.keepAliveTimeout = 5000;
  listener.on('clientError', rejectUnparsed);
  await new Promise<void>((resolve, rejectListen) => {
    listener.once('error', rejectListen);
    listener.listen(options.port, options.host.replace(/^\[(.*)\]$/, '$1'), () => resolve());
  });
  const address = listener.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  // A session lives at most idleMs plus one sweep after its client went away.
  const sweeper = setInterval(() => void closeIdleSessions(), Math.min(idleMs, 60_000)).unref();
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    sessions: () => sessions.size,
    closeIdleSessions,
    close: async () => {
      clearInterval(sweeper);
      for (const session of [...sessions.values()]) {
        session.closing.abort();
        await session.server.close().catch(() => {});
      }
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
