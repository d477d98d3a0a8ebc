// A line too long to take (over MAX_LINE_BYTES) is answered -32600 under its request's id, read from its first or last
// bytes, so the client gets its error instead of waiting for an answer that never comes (docs/mcp.md).
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { guardedInput } from './stdio.ts';

/** The answers `guardedInput` sends and the lines it passes on for `chunks` (a 1000-byte limit). */
async function answersTo(chunks: string[]): Promise<{ answers: Array<Record<string, any>>; passed: string }> {
  const input = new PassThrough();
  const answers: Array<Record<string, any>> = [];
  const output = guardedInput(input, (message) => answers.push(message), 1000);
  let passed = '';
  output.on('data', (chunk: Buffer) => {
    passed += chunk.toString();
  });
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await new Promise((resolve) => output.on('end', resolve));
  return { answers, passed };
}

const big = 'x'.repeat(3000);

test('a line too long is answered -32600 with the id it starts or ends with; the next line is served', async () => {
  const cases: Array<[string, unknown]> = [
    // The SDK's client: method, params, then jsonrpc and id. A nested "id" is not taken for the request's.
    [
      `{"method":"tools/call","params":{"name":"state_set","arguments":{"id":"1.1","note":"${big}"}},"jsonrpc":"2.0","id":7}`,
      7,
    ],
    [`{"method":"tools/call","params":{"arguments":{"note":"${big}","id":"1.1"}},"jsonrpc":"2.0","id":"r-8"}\r`, 'r-8'],
    [`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{"note":"${big}"}}}`, 9],
    [`{"jsonrpc": "2.0", "method": "tools/call", "id": "a", "params": {"note": "${big}"}}`, 'a'],
    // No id to be found (a notification, a nested one only, an id the head and tail do not show): null.
    [`{"jsonrpc":"2.0","method":"notifications/x","params":{"note":"${big}"}}`, null],
    [`{"jsonrpc":"2.0","method":"x","params":{"note":"${big}","id":3}}`, null],
    [`{"jsonrpc":"2.0","params":{"note":"${big}"},"id":007}`, null],
    [`not json ${big}`, null],
  ];
  for (const [line, id] of cases) {
    const next = '{"jsonrpc":"2.0","id":99,"method":"ping"}';
    // Whole, and cut in chunks that split the id itself.
    for (const chunks of [
      [`${line}\n${next}\n`],
      [line.slice(0, 500), line.slice(500, -3), `${line.slice(-3)}\n`, `${next}\n`],
    ]) {
      const { answers, passed } = await answersTo(chunks);
      assert.deepEqual(
        answers,
        [{ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: a line longer than 1000 bytes' } }],
        line.slice(0, 60),
      );
      assert.equal(passed, `${next}\n`, 'the next line is served');
    }
  }
});
