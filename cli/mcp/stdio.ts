// The server's stdio: stdout carries JSON-RPC only, and a malformed line gets a JSON-RPC error
// instead of being dropped. The SDK's stdio transport skips a line it cannot parse without an answer
// and closes on a line longer than its buffer; lines reach it only once they are whole, valid
// messages of bounded size.
import { Transform, type Readable, type Writable } from 'node:stream';
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** A line longer than this is answered with an error and skipped (bytes). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

type Reply = (message: Record<string, unknown>) => void;

function errorReply(id: unknown, code: ErrorCode, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code, message } };
}

/** Checks one line; returns it when it is a JSON-RPC message, else answers it and returns null. */
function checkLine(line: string, reply: Reply): string | null {
  if (line.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    reply(errorReply(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`));
    return null;
  }
  if (JSONRPCMessageSchema.safeParse(parsed).success) return line;
  const id = typeof parsed === 'object' && parsed !== null && 'id' in parsed ? (parsed as { id: unknown }).id : null;
  // A malformed notification (no id) gets no answer in JSON-RPC; anything else does.
  if (id !== undefined)
    reply(
      errorReply(
        id,
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message (jsonrpc: "2.0", method, and id for a request)',
      ),
    );
  return null;
}

/** `input` split into lines, passing on only valid JSON-RPC messages (one per line). */
export function guardedInput(input: Readable, reply: Reply, maxLineBytes = MAX_LINE_BYTES): Readable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false; // inside a line that is already too long
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, newline);
        start = newline + 1;
        if (skipping || pendingBytes + piece.length > maxLineBytes) {
          if (!skipping)
            reply(
              errorReply(null, ErrorCode.InvalidRequest, `Invalid Request: a line longer than ${maxLineBytes} bytes`),
            );
          skipping = false;
        } else {
          const line = checkLine(
            Buffer.concat([...pending, piece])
              .toString('utf8')
              .replace(/\r$/, ''),
            reply,
          );
          if (line !== null) this.push(`${line}\n`);
        }
        pending = [];
        pendingBytes = 0;
      }
      const rest = chunk.subarray(start);
      if (!skipping && pendingBytes + rest.length > maxLineBytes) {
        reply(errorReply(null, ErrorCode.InvalidRequest, `Invalid Request: a line longer than ${maxLineBytes} bytes`));
        skipping = true;
        pending = [];
        pendingBytes = 0;
      } else if (!skipping && rest.length > 0) {
        pending.push(Buffer.from(rest));
        pendingBytes += rest.length;
      }
      done();
    },
  });
  return input.pipe(lines);
}

/**
 * Keeps stdout for JSON-RPC: returns a writer to the real stdout for the transport, and sends any
 * other write to process.stdout (a stray print, console.log) to stderr.
 */
export function claimStdout(): Pick<Writable, 'write' | 'once' | 'on'> {
  const stdout = process.stdout;
  // The client went away (killed, or closed its end): stop as on SIGTERM, releasing held locks (cli/run.ts).
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.kill(process.pid, 'SIGTERM');
  });
  const write = stdout.write.bind(stdout);
  stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
    (process.stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
  return {
    write: ((chunk: string | Uint8Array, ...rest: unknown[]) =>
      (write as (...args: unknown[]) => boolean)(chunk, ...rest)) as Writable['write'],
    once: stdout.once.bind(stdout) as Writable['once'],
    on: stdout.on.bind(stdout) as Writable['on'],
  };
}
