// Test fixture (imported only by *.test.ts): the SDK's own client connected to `codelabgen mcp` over
// stdio, which lists the tools first (as every host does, so it checks each structuredContent against
// its tool's outputSchema), and a log of every answer it got.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  type ElicitResult,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { request as httpRequest } from 'node:http';
import { CLI } from './testing.ts';

export interface ToolAnswer {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The server's environment: this process's, without a course or a fault injection. */
export function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'CODELABGEN_COURSE' && key !== 'CODELABGEN_TEST_FAULT') env[key] = value;
  return { ...env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '10' };
}

export interface ListedClient {
  client: Client;
  /** Every answer and log message the server sent, as JSON text, in order. */
  seen: string[];
  call(
    name: string,
    args?: Record<string, unknown>,
    onprogress?: (progress: { progress: number; total?: number; message?: string }) => void,
  ): Promise<ToolAnswer>;
  close(): Promise<void>;
}

/** `codelabgen mcp [--course course]` in `cwd`, connected, with its tools listed. */
export async function listedClient(cwd: string, course?: string): Promise<ListedClient> {
  const client = new Client({ name: 'codelabgen-test', version: '1' });
  const seen: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    seen.push(JSON.stringify(notification.params));
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', ...(course === undefined ? [] : ['--course', course])],
      cwd,
      env: serverEnv(),
      stderr: 'ignore',
    }),
  );
  try {
    seen.push(JSON.stringify(await client.listTools()));
  } catch (error) {
    await client.close();
    throw error;
  }
  return {
    client,
    seen,
    async call(name, args = {}, onprogress) {
      const answer = (await client.callTool(
        { name, arguments: args },
        undefined,
        onprogress ? { onprogress, timeout: 240_000 } : { timeout: 240_000 },
      )) as ToolAnswer;
      seen.push(JSON.stringify(answer));
      return answer;
    },
    close: () => client.close(),
  };
}

/**
 * Every progress notification the server sends `client`, in the order its transport reads them.
 * The SDK's client runs a notification's handler a tick after it reads it but a response at once,
 * and drops a call's progress handler with its response: an update read together with the result
 * (more likely under load) never reaches the call's `onprogress`. A test of what the server sends
 * reads it here; a call's `onprogress` sees an in-order prefix of it.
 */
export function progressSentTo(client: Client): Array<{ progress: number; total?: number; message?: string }> {
  const sent: Array<{ progress: number; total?: number; message?: string }> = [];
  const transport = client.transport!;
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress')
      sent.push(message.params as { progress: number; total?: number; message?: string });
    deliver(message, extra);
  };
  return sent;
}

/** An answer's texts, one string. */
export function textOf(answer: ToolAnswer): string {
  return answer.content.map((item) => item.text ?? '').join('\n');
}

/** `codelabgen mcp --course course` connected with a client that answers each elicitation (its message) by `answer`. */
export async function elicitingClient(
  course: string,
  answer: (message: string) => ElicitResult | Promise<ElicitResult>,
): Promise<Client> {
  const client = new Client({ name: 'codelabgen-test', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--course', course],
      cwd: course,
      env: serverEnv(),
      stderr: 'ignore',
    }),
  );
  return client;
}

/**
 * POSTs an MCP initialize to `codelabgen mcp --http` at 127.0.0.1:port/mcp, on a connection of its
 * own, with `headers` (a `host` among them replaces the default Host); resolves to the HTTP status.
 * node:http, since fetch may not set Host.
 */
export function postInitialize(port: number, headers: Record<string, string> = {}): Promise<number> {
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
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
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
