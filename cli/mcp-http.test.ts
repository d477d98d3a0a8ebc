// `codelabgen mcp --http` fails closed, end to end through the built CLI: an address other than
// loopback is refused at start without $CODELABGEN_MCP_TOKEN (exit 2, the fix named), and such a
// server takes requests that name the bound address only, never `localhost`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { CLI, cli, scratchCourse, snapshot } from './testing.ts';

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
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
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
