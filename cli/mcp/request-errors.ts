// A request whose params do not fit its method's MCP schema (`tools/call` with `arguments` a string,
// `resources/read` with a `uri` that is no string, `logging/setLevel` with an unknown level) is the
// client's mistake: -32602 Invalid params, naming the field. The SDK parses params in its own wrapper
// around each handler and lets the parse error through as -32603 Internal error (a bug, by this
// project's rules); every handler registered is wrapped to answer -32602 instead.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { escapeControl, printable } from '../../pipeline/state-commands.ts';

export type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

interface SchemaIssue {
  path: PropertyKey[];
  message: string;
}

function schemaIssues(error: unknown): SchemaIssue[] | null {
  const issues = (error as { issues?: unknown } | null)?.issues;
  // zod's classic ZodError, or zod/v4/core's $ZodError (what the bundled SDK throws).
  const zod = /^\$?ZodError$/.test(String((error as Error | null)?.name));
  return zod && Array.isArray(issues) ? (issues as SchemaIssue[]) : null;
}

/** Wraps every request handler `server` has so far (call it once all are registered). */
export function withInvalidParamsAnswered(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  // A private field of the SDK (1.x): an SDK without it leaves the answers as the SDK gives them
  // (-32603) rather than keep the server from starting; cli/mcp-malformed.test.ts fails then.
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of [...(handlers as Map<string, Handler>)]) {
    handlers.set(method, async (request: unknown, extra: unknown) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        const issues = schemaIssues(error);
        if (issues === null) throw error;
        const first = issues[0];
        const where = first?.path.map(String).join('.') || 'params';
        // A prompt's argument that is no string: named with its prompt, as prompts.ts names a missing one.
        const prompt = (request as { params?: { name?: unknown } } | null)?.params?.name;
        const argument = first?.path[0] === 'params' && first.path[1] === 'arguments' ? first.path[2] : undefined;
        throw new McpError(
          ErrorCode.InvalidParams,
          escapeControl(
            method === 'prompts/get' && typeof prompt === 'string' && argument !== undefined && first?.path.length === 3
              ? `prompt ${printable(prompt)}: ${printable(String(argument))}: ${first.message}`
              : `${method}: \`${where}\`: ${first?.message ?? 'invalid'}`,
          ),
        );
      }
    });
  }
}

/**
 * Runs `register`, wrapping the handler it sets for `schema`'s method with `wrap`: for the handlers the
 * SDK's McpServer sets itself (resources/read, prompts/get), which it validates before calling ours.
 */
export function withHandlerWrapped<T>(
  server: McpServer,
  schema: unknown,
  wrap: (handler: Handler) => Handler,
  register: () => T,
): T {
  const protocol = server.server;
  const setRequestHandler = protocol.setRequestHandler.bind(protocol);
  protocol.setRequestHandler = ((given: unknown, handler: Handler) =>
    setRequestHandler(
      given as Parameters<typeof setRequestHandler>[0],
      (given === schema ? wrap(handler) : handler) as Parameters<typeof setRequestHandler>[1],
    )) as typeof protocol.setRequestHandler;
  try {
    return register();
  } finally {
    protocol.setRequestHandler = setRequestHandler;
  }
}
