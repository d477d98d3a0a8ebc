// `codelabgen mcp --http` fails closed, end to end through the built CLI: an address other than
// loopback is refused at start without $CODELABGEN_MCP_TOKEN (exit 2, the fix named), and such a
// server takes requests that name the bound address only, never `localhost`. Hostile requests
// (seeded: HOSTILE_HTTP_SEED, HOSTILE_HTTP_CASES) get answers a client can read: every answer that
// is not 2xx is a JSON-RPC error with an allowed code, and none names a path.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { homedir, hostname } from 'node:os';
import { test } from 'node:test';
import { prng } from './fuzz-cases.ts';
import { postInitialize } from './mcp-client.ts';
import { pathsOutside } from './hostile-site-dev.ts';
import { CLI, cli, REPO_ROOT, scratchCourse, snapshot } from './testing.ts';

const TOKEN = 'sesame-0123456789';

/** `codelabgen mcp --http LISTEN` with `env`; resolves with its port once it listens. */
async function httpServer(root: string, listen: string, env: Record<string, string>) {
  const server = spawn(process.execPath, [CLI, 'mcp', '--course', root, '--http', listen], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /serving http:\/\/\S+:(\d+)\/mcp/.exec(stderr);
      if (found) resolve(Number(found[1]));
    });
    server.on('close', () => reject(new Error(`the server ended: ${stderr}`)));
  });
  return { server, port };
}

/** POSTs an initialize to 127.0.0.1:port (the only address tests may reach) with the given Host header; the status. */
function initialize(port: number, host: string, headers: Record<string, string> = {}): Promise<number> {
  return postInitialize(port, { host, ...headers });
}

test('serving an address other than loopback without CODELABGEN_MCP_TOKEN is refused at start (exit 2), changing nothing', {
  timeout: 60_000,
}, () => {
  const root = scratchCourse();
  const before = snapshot(root);
  for (const listen of ['0.0.0.0:0', '[::]:0', 'example.test:0', '192.0.2.10:0']) {
    const result = cli(['mcp', '--course', root, '--http', listen], {
      env: { CODELABGEN_MCP_TOKEN: undefined },
      timeoutMs: 20_000,
    });
    assert.equal(result.code, 2, `${listen}: ${result.stderr}`);
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(
      lines[0],
      `error: --http ${listen.replace(/:0$/, '')}:0: serving an address other than loopback needs a bearer token; set CODELABGEN_MCP_TOKEN`,
    );
    assert.ok(
      lines.slice(1).every((line) => line.startsWith('hint: ')),
      result.stderr,
    );
    assert.doesNotMatch(result.stderr, /serving http/);
  }
  // An empty token is no token.
  assert.equal(cli(['mcp', '--course', root, '--http', '0.0.0.0:0'], { env: { CODELABGEN_MCP_TOKEN: '' } }).code, 2);
  assert.deepEqual(snapshot(root), before);
});

test("a server on 0.0.0.0 (with its token) takes this machine's own names only: Host localhost is refused", {
  timeout: 60_000,
}, async () => {
  const root = scratchCourse();
  const { server, port } = await httpServer(root, '0.0.0.0:0', { CODELABGEN_MCP_TOKEN: TOKEN });
  try {
    const auth = { authorization: `Bearer ${TOKEN}` };
    assert.equal(await initialize(port, `localhost:${port}`, auth), 403);
    assert.equal(await initialize(port, `127.0.0.1:${port}`, auth), 403);
    assert.equal(await initialize(port, `evil.example:${port}`, auth), 403);
    assert.equal(await initialize(port, `${hostname()}:${port}`, auth), 200);
    assert.equal(await initialize(port, `${hostname()}:${port}`), 401, 'the token is still required');
    assert.equal(await initialize(port, `${hostname()}:${port}`, { ...auth, origin: 'http://localhost:3000' }), 403);
  } finally {
    server.kill('SIGKILL');
  }
});

test('a loopback server needs no token and takes the loopback names, as before', { timeout: 60_000 }, async () => {
  const root = scratchCourse();
  const { server, port } = await httpServer(root, '127.0.0.1:0', { CODELABGEN_MCP_TOKEN: '' });
  try {
    assert.equal(await initialize(port, `localhost:${port}`), 200);
    assert.equal(await initialize(port, `127.0.0.1:${port}`), 200);
    assert.equal(await initialize(port, `${hostname()}:${port}`), 403);
  } finally {
    server.kill('SIGKILL');
  }
});

const HTTP_SEED = Number(process.env.HOSTILE_HTTP_SEED ?? 1);
const HTTP_CASES = Number(process.env.HOSTILE_HTTP_CASES ?? 80);
/** The codes a refusal over HTTP may carry: the SDK transport's (-32000, -32001) and JSON-RPC's own; never -32603. */
const REFUSAL_CODES = new Set([-32000, -32001, -32600, -32601, -32602, -32700]);

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * What is wrong with one answer: a non-2xx that is not a JSON-RPC error with an allowed code, or a path
 * named that the request (`asked`: its path, headers and body) did not give.
 */
function answerProblems(what: string, answer: Answer, asked: string): string[] {
  const problems: string[] = [];
  // 2xx answers are the tools' own (a refusal may echo a path the request gave); none names codelabgen's folder or home.
  const named = [REPO_ROOT, homedir()].filter((where) => answer.body.includes(where));
  if (named.length > 0) problems.push(`${what}: ${answer.status} names ${named.join(', ')}`);
  if (answer.status >= 200 && answer.status < 300) return problems;
  const leaked = pathsOutside(answer.body, '/nowhere').filter((at) => !asked.includes(at.replace(/\\+$/, '')));
  if (leaked.length > 0) problems.push(`${what}: ${answer.status} names ${leaked.slice(0, 3).join(', ')}`);
  let parsed: { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown }; id?: unknown } | undefined;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    problems.push(
      `${what}: ${answer.status} ${answer.contentType || '(no content-type)'} is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`,
    );
    return problems;
  }
  const error = parsed?.error;
  if (
    parsed?.jsonrpc !== '2.0' ||
    !('id' in (parsed ?? {})) ||
    typeof error?.message !== 'string' ||
    typeof error.code !== 'number' ||
    !REFUSAL_CODES.has(error.code)
  )
    problems.push(
      `${what}: ${answer.status} is not a JSON-RPC error with an allowed code: ${answer.body.slice(0, 200)}`,
    );
  if (!/^application\/json\b/.test(answer.contentType))
    problems.push(`${what}: ${answer.status} as ${answer.contentType}`);
  return problems;
}

/** One request; an event stream that stays open (a GET's) is read up to its headers. */
function send(
  port: number,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body: string | Buffer | null,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path: pathname, headers, setHost: false, agent: false },
      (response) => {
        const contentType = String(response.headers['content-type'] ?? '');
        const status = response.statusCode ?? 0;
        if (method === 'GET' && status === 200 && contentType.startsWith('text/event-stream')) {
          response.destroy();
          resolve({ status, contentType, body: '' });
          return;
        }
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status, contentType, body: text }));
        response.on('error', reject);
      },
    );
    request.setTimeout(60_000, () => request.destroy(new Error('no answer within 60 s')));
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

/** Bytes written as they are on a socket (HTTP a client library would not send); the answer parsed by hand. */
function sendRaw(port: number, bytes: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    socket.setTimeout(30_000, () => socket.destroy(new Error('no answer within 30 s')));
    socket.on('error', (error) => (text === '' ? reject(error) : socket.destroy()));
    socket.on('close', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '';
      resolve({ status, contentType, body: rest.join('\r\n\r\n') });
    });
    socket.end(bytes);
  });
}

test('hostile requests: every answer that is not 2xx is a JSON-RPC error with an allowed code, and none names a path', {
  timeout: 600_000,
}, async (t) => {
  const root = scratchCourse();
  const { server, port } = await httpServer(root, '127.0.0.1:0', { CODELABGEN_MCP_TOKEN: TOKEN });
  const random = prng(HTTP_SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const auth = `Bearer ${TOKEN}`;
  const init = (version: unknown = '2025-06-18') =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
    });
  const problems: string[] = [];
  try {
    // A live session, so that hostile requests also reach the SDK's transport and the tools (again after a DELETE).
    const open = () =>
      new Promise<string>((resolve, reject) => {
        const request = httpRequest(
          {
            host: '127.0.0.1',
            port,
            agent: false,
            path: '/mcp',
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: auth,
            },
          },
          (response) => {
            response.resume();
            resolve(String(response.headers['mcp-session-id'] ?? ''));
          },
        );
        request.on('error', reject);
        request.end(init());
      });
    let opened = await open();
    assert.match(opened, /^[0-9a-f-]{36}$/);
    const METHODS = ['POST', 'GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'FOO'];
    // Each list's first value is a good one; a request takes it 4 times in 5 (so most requests are hostile in one or two ways).
    const PATHS = [
      '/mcp',
      '/',
      '/mcp/',
      '/MCP',
      '/mcp?x=%ZZ',
      '/%ZZ',
      '/../etc/passwd',
      '//mcp',
      `/mcp/${'a'.repeat(3000)}`,
      '/mcp%00',
      '/mcp#x',
      '*',
    ];
    const HOSTS = [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'evil.example',
      '',
      '[::1]',
      `127.0.0.1:${port}/etc/passwd`,
      '%ZZ',
    ];
    const ORIGINS = [undefined, 'http://evil.example', 'null', `http://127.0.0.1:${port}`, '%ZZ', 'file:///etc/passwd'];
    const ACCEPTS = ['application/json, text/event-stream', 'application/json', 'text/event-stream', undefined, '*/*'];
    const TYPES = [
      'application/json',
      'text/plain',
      undefined,
      'application/json; charset=latin1',
      'multipart/form-data; boundary=x',
    ];
    const SESSIONS = ['live', undefined, '00000000-0000-0000-0000-000000000000', '../../etc/passwd', 'x'.repeat(5000)];
    const AUTHS = [auth, undefined, 'Bearer wrong', `Basic ${Buffer.from('a:b').toString('base64')}`, `${auth} `];
    const VERSIONS = ['2025-06-18', undefined, 'bogus', '1999-01-01'];
    const call = (name: string, args: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });
    const BODIES: Array<string | Buffer | null> = [
      null,
      '',
      '{',
      'null',
      '[]',
      '{}',
      '[{}]',
      '"text"',
      init(),
      init(5),
      `[${init()},${init()}]`,
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":3,"result":{}}',
      '{"jsonrpc":"1.0","id":4,"method":"ping"}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
      '{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"codelabgen://lesson/..%2F..%2Fetc/run/1"}}',
      call('state_show', {}),
      call('state_show', { course: '/etc' }),
      call('no_such_tool', {}),
      call('state_set', { id: '../../etc/passwd', stage: 'x' }),
      '{"__proto__":{"polluted":1},"jsonrpc":"2.0","id":6,"method":"ping"}',
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x22]),
    ];
    const field = <T>(list: readonly T[]): T => (random() < 0.8 ? list[0]! : pick(list.slice(1)));
    const statuses = new Map<number, number>();
    for (let at = 0; at < HTTP_CASES; at += 1) {
      const method = field(METHODS);
      const pathname = field(PATHS);
      const headers: Record<string, string> = {};
      const set = (name: string, value: string | undefined) => {
        if (value !== undefined) headers[name] = value;
      };
      set('host', field(HOSTS));
      set('origin', field(ORIGINS));
      set('accept', field(ACCEPTS));
      set('content-type', field(TYPES));
      const session = field(SESSIONS);
      set('mcp-session-id', session === 'live' ? opened : session);
      set('authorization', field(AUTHS));
      set('mcp-protocol-version', field(VERSIONS));
      if (random() < 0.1) set('last-event-id', pick(['x', '../../etc/passwd', `${opened}_1`]));
      const body = method === 'GET' || method === 'OPTIONS' ? null : pick(BODIES);
      const what =
        `case ${at} (HOSTILE_HTTP_SEED=${HTTP_SEED}): ${method} ${pathname.slice(0, 80)} ` +
        `${JSON.stringify(headers).slice(0, 300)} body ${JSON.stringify(String(body ?? '').slice(0, 80))}`;
      try {
        const asked = `${pathname} ${JSON.stringify(headers)} ${String(body ?? '')}`;
        const answer = await send(port, method, pathname, headers, body);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        problems.push(...answerProblems(what, answer, asked));
        if (method === 'DELETE' && headers['mcp-session-id'] === opened) opened = await open();
      } catch (error) {
        problems.push(`${what}: ${(error as Error).message}`);
      }
    }
    // HTTP a client library would not send: Node's parser refuses it before any handler runs.
    const hostHeader = `Host: 127.0.0.1:${port}\r\nAuthorization: ${auth}\r\n`;
    const RAW = [
      'GARBAGE\r\n\r\n',
      `GET /mcp HTTP/1.1\r\n${hostHeader}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      `POST /mcp HTTP/1.1\r\n${hostHeader}Content-Length: abc\r\n\r\n`,
      `POST /mcp HTTP/1.1\r\n${hostHeader}Transfer-Encoding: chunked\r\n\r\nzz\r\n\r\n`,
      `GET /mcp HTTP/1.1\r\n${hostHeader}Bad Header\r\n\r\n`,
      `GET /m\x00cp HTTP/1.1\r\n${hostHeader}\r\n`,
    ];
    for (const [at, bytes] of RAW.entries()) {
      const what = `raw ${at}: ${JSON.stringify(bytes.slice(0, 60))}`;
      try {
        const answer = await sendRaw(port, bytes);
        if (answer.status === 0) problems.push(`${what}: no HTTP answer`);
        problems.push(...answerProblems(what, answer, bytes));
      } catch (error) {
        problems.push(`${what}: ${(error as Error).message}`);
      }
    }
    // The server still serves; and the cases reached past the checks of cli/mcp/http.ts, into the SDK and the tools.
    assert.equal(await initialize(port, `127.0.0.1:${port}`, { authorization: auth }), 200);
    t.diagnostic(`answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    const passed = [...statuses].filter(([status]) => status >= 200 && status < 300).reduce((sum, [, n]) => sum + n, 0);
    assert.ok(passed >= HTTP_CASES / 20, `only ${passed} of ${HTTP_CASES} cases got past the refusals`);
  } finally {
    server.kill('SIGKILL');
  }
  assert.deepEqual(problems, []);
});
