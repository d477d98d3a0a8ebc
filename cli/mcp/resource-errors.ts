// "Resource not found" as MCP 2025-11-25 asks (server/resources, "Error Handling": code -32002 with the
// URI in `data`): for a URI no resource or template serves, and for a lesson, run or report that does
// not exist. The SDK answers an unknown URI with -32602; its resources/read handler is wrapped to say -32002.
// (The 2026-07-28 revision, SEP-2164, moves this back to -32602; the SDK this server uses speaks 2025-11-25.)
// A read the course refuses (a broken state.json, no course) is -32602 with the CLI's words: -32603 is a bug.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { EXIT } from '../exit-codes.ts';
import { describeError } from '../settle.ts';
import { withHandlerWrapped } from './request-errors.ts';

export const RESOURCE_NOT_FOUND = -32002;

/** The error of a resource that does not exist. */
export function resourceNotFound(uri: string, message: string): McpError {
  return new McpError(RESOURCE_NOT_FOUND, message, { uri });
}

/**
 * A command's failure as a resource read's error: a refusal (exit 1 or 2) is -32602 with its `error:`
 * line, as a prompt's; only an internal error (exit 3) stays -32603 (the SDK's answer to a plain Error).
 */
export function commandFailure(exitCode: number, message: string): Error {
  return exitCode === EXIT.internal ? new Error(message) : new McpError(ErrorCode.InvalidParams, message);
}

/** `error` thrown while reading a resource, as commandFailure() words it (a refusal: -32602). */
export function readFailure(error: unknown): Error {
  if (error instanceof McpError) return error;
  const { exitCode, text } = describeError(error);
  return exitCode === EXIT.internal ? (error as Error) : commandFailure(exitCode, text.trimEnd());
}

/**
 * Runs `register` (which registers the resources) so that the resources/read handler the SDK sets
 * answers a URI it serves nothing at with -32002 instead of -32602; returns what `register` returns.
 */
export function withUnknownUrisNotFound<T>(server: McpServer, register: () => T): T {
  return withHandlerWrapped(
    server,
    ReadResourceRequestSchema,
    (handler) => async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        const uri = String((request as { params: { uri: string } }).params.uri);
        const unknown =
          error instanceof McpError &&
          error.code === ErrorCode.InvalidParams &&
          /^Resource .* not found$/.test(error.message.replace(/^MCP error -?\d+: /, ''));
        // A URI that does not parse (`""`) is no resource either (the SDK's `new URL` throws).
        if (unknown || (error as { code?: unknown }).code === 'ERR_INVALID_URL') throw unknownResource(uri);
        throw error;
      }
    },
    register,
  );
}

/** The -32002 of a URI no resource or template serves (a read, a subscription). */
export function unknownResource(uri: string): McpError {
  return resourceNotFound(uri, `no resource ${uri}: see resources/list and resources/templates/list`);
}
