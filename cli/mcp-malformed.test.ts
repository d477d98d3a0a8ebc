// A request whose params do not fit its method's MCP schema, sent raw over stdio as a hostile client
// would: each answer is -32602 (or -32002 for a URI that names nothing), never -32603 Internal error,
// and the server keeps answering (cli/mcp/request-errors.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { listedClient, serverEnv } from './mcp-client.ts';
import { CLI, scratchCourse } from './testing.ts';

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

test('malformed params are -32602 (or -32002) naming the field, never -32603', { timeout: 120_000 }, async () => {
  const course = scratchCourse('Malformed');
  const child = spawn(process.execPath, [CLI, 'mcp'], {
    cwd: course,
    env: serverEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  try {
    const waiting = new Map<number, (answer: Answer) => void>();
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const answer = JSON.parse(buffer.slice(0, end)) as Answer;
        buffer = buffer.slice(end + 1);
        waiting.get(answer.id)?.(answer);
      }
    });
    let next = 0;
    const call = (method: string, params: unknown) => {
      const id = ++next;
      const answered = new Promise<Answer>((resolve) => waiting.set(id, resolve));
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return answered;
    };
    const init = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } };
    assert.ok((await call('initialize', init)).result);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    assert.ok((await call('tools/list', {})).result);

    const rows: [string, unknown, number, RegExp][] = [
      [
        'tools/call',
        { name: 'state_show', arguments: 'a string' },
        -32602,
        /^MCP error -32602: tools\/call: `params\.arguments`: /,
      ],
      ['tools/call', { name: 'state_show', arguments: [] }, -32602, /`params\.arguments`/],
      ['tools/call', { arguments: {} }, -32602, /`params\.name`/],
      ['resources/read', { uri: 5 }, -32602, /^MCP error -32602: resources\/read: `params\.uri`: /],
      ['resources/read', {}, -32602, /`params\.uri`/],
      ['resources/read', { uri: '' }, -32002, /no resource : see resources\/list/],
      ['logging/setLevel', { level: 'nope' }, -32602, /^MCP error -32602: logging\/setLevel: `params\.level`: /],
      ['prompts/get', { name: 7 }, -32602, /`params\.name`/],
    ];
    for (const [method, params, code, message] of rows) {
      const answer = await call(method, params);
      assert.equal(answer.error?.code, code, `${method} ${JSON.stringify(params)}: ${JSON.stringify(answer)}`);
      assert.match(answer.error?.message ?? '', message);
    }
    // Still serving.
    assert.ok((await call('tools/call', { name: 'state_show', arguments: {} })).result);
  } finally {
    child.kill('SIGKILL');
  }
});

test("the SDK's client gets -32600 for a request over 8 MiB, under its id, and the server keeps serving", {
  timeout: 180_000,
}, async () => {
  // Before: the answer had id null (the line was never read whole), so the client waited for its timeout (-32001).
  const course = scratchCourse('Too long');
  const mcp = await listedClient(course, course);
  try {
    const huge = { kind: 'huge', data: { value: 'x'.repeat(9 * 1024 * 1024) } };
    await assert.rejects(
      mcp.client.callTool({ name: 'state_log', arguments: huge }, undefined, { timeout: 120_000 }),
      (error: { code?: number; message?: string }) => {
        assert.equal(error.code, -32600, error.message);
        assert.match(error.message ?? '', /a line longer than 8388608 bytes/);
        return true;
      },
    );
    assert.equal((await mcp.call('state_show', {})).isError, false);
  } finally {
    await mcp.close();
  }
});
