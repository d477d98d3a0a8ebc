// The MCP server: the tools (cli/mcp/tool-calls.ts), resources and their subscriptions, completions
// and prompts, each registered by its module. Every call runs its command module afresh (cli/mcp/invoke.ts):
// the course is re-read each time, so a CLI user and MCP clients can work on one course at once.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerCompletions } from './completions.ts';
import { registerPrompts } from './prompts.ts';
import { withInvalidParamsAnswered } from './request-errors.ts';
import { withUnknownUrisNotFound } from './resource-errors.ts';
import { registerResources } from './resources.ts';
import { serverContext, type ServerOptions } from './server-context.ts';
import { registerSubscriptions } from './subscriptions.ts';
import { registerTools } from './tool-calls.ts';

const INSTRUCTIONS =
  'codelabgen keeps the state of a course generation. Start with the state_next tool (or the ' +
  "codelabgen://next resource): make its next_call when there is one, else do its next_step (a worker's job " +
  'or a decision); the orchestrate prompt has the whole loop. Every tool is one CLI command: a refusal is a ' +
  'tool error whose text is the `error: ...` line and its `hint: ...` lines (nothing changed; also as ' +
  '_meta["codelabgen/error"]), and _meta["codelabgen/exit_code"] is the CLI exit code.';

export function createServer(options: ServerOptions): McpServer {
  const server = new McpServer(
    { name: 'codelabgen', version: options.version },
    { instructions: INSTRUCTIONS, capabilities: { logging: {} } },
  );
  const ctx = serverContext(server, options);
  registerTools(ctx);
  const resources = withUnknownUrisNotFound(server, () => registerResources(ctx));
  registerSubscriptions(ctx, resources);
  const prompts = registerPrompts(ctx);
  registerCompletions(ctx, prompts, resources);
  withInvalidParamsAnswered(server);
  return server;
}
