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

/** Bytes kept of each end of a line too long to take: where a client writes its request's id. */
const EDGE_BYTES = 256;
/** The id as the first member (after string-valued ones such as "jsonrpc"), as most clients write it. */
const ID_FIRST = /^\s*\{(?:\s*"\w+"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*(-?(?:0|[1-9]\d*)|"[^"\\]*")\s*[,}]/;
/** The id as the last member, as the SDK's client writes it: the `}` after it is the line's last, so the message's. */
const ID_LAST = /[,{]\s*"id"\s*:\s*(-?(?:0|[1-9]\d*)|"[^"\\]*")\s*\}\s*$/;

/**
 * The id of a request whose line was too long to read whole, from its first and last bytes, or null: the answer
 * carries it, so the client gets its error instead of waiting for an answer that never comes.
 */
function idOfTooLong(head: Buffer, tail: Buffer): unknown {
  const found = ID_FIRST.exec(head.toString('utf8')) ?? ID_LAST.exec(tail.toString('utf8'));
  return found ? JSON.parse(found[1]!) : null;
}

/** The last EDGE_BYTES of `kept` followed by `more`, copied (a chunk is not held on to). */
function lastBytes(kept: Buffer, more: Buffer): Buffer {
  return Buffer.from(Buffer.concat([kept, more.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES));
}

/** `input` split into lines, passing on only valid JSON-RPC messages (one per line). */
export function guardedInput(input: Readable, reply: Reply, maxLineBytes = MAX_LINE_BYTES): Readable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // Inside a line that is already too long: its first and last bytes, read for its id when it ends.
  let skipped: { head: Buffer; tail: Buffer } | null = null;
  const skip = (piece: Buffer) => {
    const whole = Buffer.concat([...pending, piece]);
    skipped = { head: Buffer.from(whole.subarray(0, EDGE_BYTES)), tail: lastBytes(Buffer.alloc(0), whole) };
    pending = [];
    pendingBytes = 0;
  };
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, newline);
        start = newline + 1;
        if (skipped === null && pendingBytes + piece.length > maxLineBytes) skip(piece);
        else if (skipped !== null) skipped.tail = lastBytes(skipped.tail, piece);
        if (skipped !== null) {
          const { head, tail } = skipped as { head: Buffer; tail: Buffer };
          reply(
            errorReply(
              idOfTooLong(head, tail),
              ErrorCode.InvalidRequest,
              `Invalid Request: a line longer than ${maxLineBytes} bytes`,
            ),
          );
          skipped = null;
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
      if (skipped === null && pendingBytes + rest.length > maxLineBytes) skip(rest);
      else if (skipped !== null) skipped.tail = lastBytes(skipped.tail, rest);
      else if (rest.length > 0) {
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
