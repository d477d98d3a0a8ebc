// The HTTP transport frees what abandoned clients leave: a session whose client went away without
// DELETE (no request open, none for the idle timeout) is closed; a live one is kept. The clock is
// injected, so no test waits for the timeout.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { abandoned, cancelOnDrop, isLoopbackHost, serveHttp, SESSION_IDLE_MS, type HttpServer } from './http.ts';

const IDLE_MS = 60_000;

/** A client, and a promise that resolves once its event stream (the GET a live client keeps open) is open. */
async function connect(url: string) {
  const client = new Client({ name: 'idle-test', version: '1' });
  let streamOpened = () => {};
  const streamOpen = new Promise<void>((resolve) => {
    streamOpened = resolve;
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const response = await fetch(input, init).catch((error: { cause?: { code?: string } }) => {
        // Under load a request can take a kept-alive connection the server has just closed (its
        // keep-alive is 1 s): the request never reached it, so it is sent once more.
        if (error.cause?.code !== 'ECONNRESET') throw error;
        return fetch(input, init);
      });
      if (init?.method === 'GET' && response.ok) streamOpened();
      return response;
    },
  });
  await client.connect(transport);
  return { client, transport, streamOpen };
}

/** Tries `check` until it holds (bounded: 200 × 10 ms, for the server to see the dropped connections close). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail('the abandoned sessions were never closed');
}

test('sessions abandoned without DELETE are closed after the idle timeout; a client with its stream open is kept', {
  timeout: 30_000,
}, async () => {
  let now = 1_000_000;
  let served: HttpServer | undefined;
  const clients: Client[] = [];
  try {
    served = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      token: undefined,
      makeServer: () => new McpServer({ name: 'idle', version: '1' }),
      sessionIdleMs: IDLE_MS,
      clock: () => now,
    });
    const server = served;
    const [kept, ...gone] = await Promise.all([1, 2, 3, 4].map(() => connect(server.url)));
    clients.push(kept!.client, ...gone.map((each) => each.client));
    assert.equal(server.sessions(), 4);
    await kept!.streamOpen;
    // Three clients go away without ending their sessions (a killed host sends no DELETE).
    for (const each of gone) await each.transport.close();
    assert.equal(await server.closeIdleSessions(), 0, 'no time has passed');
    // Each is closed once it has been idle IDLE_MS (from when the server saw its connection close).
    let closed = 0;
    await until(async () => {
      now += IDLE_MS;
      closed += await server.closeIdleSessions();
      return closed === 3;
    });
    assert.equal(server.sessions(), 1);
    // The live client kept its event stream open: its session stays, however long it waits.
    now += 10 * IDLE_MS;
    assert.equal(await server.closeIdleSessions(), 0);
    await kept!.client.ping();
    assert.equal(server.sessions(), 1);
    // A request to a closed session is told to start a new one.
    const stale = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': gone[0]!.transport.sessionId!,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    assert.equal(stale.status, 404);
  } finally {
    for (const client of clients) await client.close().catch(() => {});
    await served?.close();
  }
});

test('abandoned: no request open and idle for the whole timeout', () => {
  const cases: Array<[open: number, lastActive: number, now: number, expected: boolean]> = [
    [0, 0, IDLE_MS, true],
    [0, 0, IDLE_MS - 1, false],
    [0, 5, 5 + 10 * IDLE_MS, true],
    [1, 0, 10 * IDLE_MS, false],
    [2, 0, 10 * IDLE_MS, false],
  ];
  for (const [open, lastActive, now, expected] of cases)
    assert.equal(abandoned({ open, lastActive }, now, IDLE_MS), expected, JSON.stringify({ open, lastActive, now }));
});

test('the idle timeout is 30 minutes by default; loopback is 127.0.0.0/8, ::1 and localhost only', () => {
  assert.equal(SESSION_IDLE_MS, 30 * 60 * 1000);
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '[::1]', '::1'])
    assert.equal(isLoopbackHost(host), true, host);
  for (const host of ['0.0.0.0', '[::]', '::', '10.0.0.1', '127.0.0.1.example', 'localhost.example', 'myhost'])
    assert.equal(isLoopbackHost(host), false, host);
});

test('serveHttp itself refuses a non-loopback bind without a token (any caller, not only the CLI)', async () => {
  await assert.rejects(
    serveHttp({
      host: '0.0.0.0',
      port: 0,
      token: undefined,
      makeServer: () => new McpServer({ name: 'x', version: '1' }),
    }),
    /serving an address other than loopback needs a bearer token; set CODELABGEN_MCP_TOKEN/,
  );
});

test('a body that is not JSON is a JSON-RPC parse error (-32700), one too large an invalid request (-32600)', {
  timeout: 30_000,
}, async () => {
  const served = await serveHttp({
    host: '127.0.0.1',
    port: 0,
    token: undefined,
    makeServer: () => new McpServer({ name: 'codes', version: '1' }),
  });
  try {
    const post = async (body: string) => {
      const response = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      return { status: response.status, error: ((await response.json()) as { error: { code: number } }).error };
    };
    const notJson = await post('{"jsonrpc": "2.0", "method": ');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.error.code, -32700);
    const huge = await post(`"${'x'.repeat(9 * 1024 * 1024)}"`);
    assert.equal(huge.status, 413);
    assert.equal(huge.error.code, -32600);
    // A refusal of the transport itself stays what the SDK's own answers: -32000.
    const noSession = await post('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}');
    assert.equal(noSession.status, 400);
    assert.equal(noSession.error.code, -32000);
  } finally {
    await served.close();
  }
});

test(
  "a dropped POST's calls are cancelled unless the client came back, also when its return was handled before the " +
    'drop was seen or long before (a resumed stream)',
  async () => {
    const GRACE_MS = 30;
    /**
     * Drops a POST; resolves with the cancels its call got. A drop that must be cancelled resolves at
     * the cancel (10 s: a hang guard), not at a timer of its own: a test process starved of CPU runs
     * the grace timer late, and the server then looks again later (cli/mcp/http.ts LATE_MS), after
     * such a timer. A drop that must not be cancelled is looked at GRACE_MS * 4 on.
     */
    const drop = (session: Parameters<typeof cancelOnDrop>[0], before: () => void = () => {}, cancels = false) => {
      const cancelled: unknown[] = [];
      let onCancel = () => {};
      session.transport.onmessage = (message) => {
        cancelled.push((message as { params: unknown }).params);
        onCancel();
      };
      const res = Object.assign(new EventEmitter(), { writableEnded: false });
      session.requests += 1; // the POST itself
      session.lastRequestAt = Date.now();
      cancelOnDrop(session, res, [7], GRACE_MS);
      before();
      res.emit('close');
      return new Promise<unknown[]>((resolve) => {
        const timer = setTimeout(() => resolve(cancelled), cancels ? 10_000 : GRACE_MS * 4);
        if (cancels)
          onCancel = () => {
            clearTimeout(timer);
            resolve(cancelled);
          };
      });
    };
    const session = (): Parameters<typeof cancelOnDrop>[0] => ({
      requests: 0,
      lastRequestAt: 0,
      resumes: 0,
      closing: new AbortController(),
      transport: {},
    });
    // No return: its call is cancelled like the client's own notifications/cancelled.
    assert.deepEqual(await drop(session(), undefined, true), [
      { requestId: 7, reason: 'the client dropped its connection and did not come back' },
    ]);
    // The client reconnected at once and that request was handled before the old connection's close.
    const quick = session();
    assert.deepEqual(
      await drop(quick, () => {
        quick.requests += 1;
        quick.lastRequestAt = Date.now();
      }),
      [],
    );
    // A stream resumed (Last-Event-ID) after the POST is a return, however long before the drop was
    // seen: a server starved of CPU can see the close seconds after the client came back.
    const resumed = session();
    assert.deepEqual(
      await drop(resumed, () => {
        resumed.requests += 1;
        resumed.resumes += 1;
        resumed.lastRequestAt = Date.now() - 60_000;
      }),
      [],
    );
    // A server starved of CPU past the grace period runs the due timer before it reads the client's
    // return (an I/O callback, here a setImmediate): it looks again after reading, and keeps the call.
    const starved = session();
    // Blocked in a check-phase callback: when the loop next reads its clock the grace timer is due and
    // runs first; the return comes in that iteration's check phase, after the timers.
    const starvedCancels = await drop(starved, () =>
      setImmediate(() => {
        const until = Date.now() + GRACE_MS + 700;
        while (Date.now() < until); // the server gets no CPU (its grace timer becomes due meanwhile)
        setImmediate(() => {
          starved.requests += 1;
          starved.resumes += 1;
          starved.lastRequestAt = Date.now();
        });
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // past its second look too
    assert.deepEqual(starvedCancels, []);
    // A request long before the drop (the client's other calls) is no return.
    const earlier = session();
    assert.equal(
      (
        await drop(
          earlier,
          () => {
            earlier.requests += 1;
            earlier.lastRequestAt = Date.now() - 60_000;
          },
          true,
        )
      ).length,
      1,
    );
  },
);
