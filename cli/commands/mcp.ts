// codelabgen mcp [--course DIR] [--http [HOST:]PORT]: serves the protocol as MCP tools over stdio
// until the client goes away (stdin ends: calls in flight are cancelled, a commit finishes, exit 0),
// or over Streamable HTTP until SIGINT/SIGTERM (exit 130/143 as every command). The SDK loads only here.
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { releaseHeldLocks, stopRunningTests } from '../../pipeline/index.ts';
import type { Context } from '../context.ts';
import { EXIT, type ExitCode } from '../exit-codes.ts';
import { createServer } from '../mcp/server.ts';
import type { Listen } from '../mcp/http.ts';
import { claimStdout, guardedInput } from '../mcp/stdio.ts';

declare const CODELABGEN_VERSION: string | undefined;

export async function run(ctx: Context): Promise<ExitCode> {
  const http = ctx.string('http');
  if (http !== undefined) {
    // The HTTP transport (and node:http) load only for --http.
    const { parseListen, serveHttp } = await import('../mcp/http.ts');
    return runHttp(ctx, parseListen(http), serveHttp);
  }
  const given = ctx.string('course');
  const inFlight = new Set<Promise<unknown>>();
  const closing = new AbortController();
  const track = <T>(call: Promise<T>): Promise<T> => {
    inFlight.add(call);
    return call.finally(() => inFlight.delete(call));
  };
  const server = createServer({
    course: given === undefined ? undefined : path.resolve(ctx.cwd, given),
    cwd: ctx.cwd,
    env: ctx.env,
    version: typeof CODELABGEN_VERSION === 'string' ? CODELABGEN_VERSION : 'dev',
    track,
    closing: closing.signal,
  });
  const stdout = claimStdout();
  const send = (message: Record<string, unknown>) => stdout.write(`${JSON.stringify(message)}\n`);
  const input = guardedInput(process.stdin, send);
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  const transport = new StdioServerTransport(input, stdout as unknown as NodeJS.WriteStream);
  transport.onerror = (error) => ctx.out.warn(`warning: mcp: ${error.message}`);
  await server.connect(transport);
  await ended;
  // The client went away: every call in flight is cancelled (verify stops its tests and records
  // nothing, --all runs no further lesson); a commit in flight finishes.
  closing.abort();
  stopRunningTests();
  await Promise.allSettled([...inFlight]);
  await server.close().catch(() => {});
  releaseHeldLocks();
  process.stdin.destroy();
  return EXIT.ok;
}

/** Serves Streamable HTTP: one MCP server per session, each call locking the course as a CLI writer does. */
async function runHttp(
  ctx: Context,
  listen: Listen,
  serveHttp: typeof import('../mcp/http.ts').serveHttp,
): Promise<ExitCode> {
  const given = ctx.string('course');
  const track = <T>(call: Promise<T>): Promise<T> => call;
  const served = await serveHttp({
    ...listen,
    token: ctx.env.CODELABGEN_MCP_TOKEN || undefined,
    retryInterval: 1000,
    makeServer: (closing) =>
      createServer({
        course: given === undefined ? undefined : path.resolve(ctx.cwd, given),
        cwd: ctx.cwd,
        env: ctx.env,
        version: typeof CODELABGEN_VERSION === 'string' ? CODELABGEN_VERSION : 'dev',
        track,
        closing,
      }),
  });
  // The one line a launcher reads to find the port (PORT 0: any free port).
  ctx.out.warn(
    `codelabgen mcp: serving ${served.url}${ctx.env.CODELABGEN_MCP_TOKEN ? ' (bearer token required)' : ''}`,
  );
  // Serves until SIGINT or SIGTERM, which stop every command (cli/main.ts): running tests are
  // killed before the process exits, with no verdict recorded, and held locks are released.
  return new Promise<ExitCode>(() => {});
}
