// What the MCP server's parts share: the server, its options and tools, and how a call finds its
// course (argument, --course, $CODELABGEN_COURSE, the client's roots) and runs a command (cli/mcp/invoke.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { resolveCourse } from '../../pipeline/state-commands.ts';
import { COMMANDS } from '../commands.ts';
import type { ProgressUpdate } from '../context.ts';
import { invoke, type Outcome } from './invoke.ts';
import { commandFailure, readFailure } from './resource-errors.ts';
import { toInvocation } from './tool-arguments.ts';
import { inToolTerms } from './tool-terms.ts';
import type { McpTool } from './tool-types.ts';
import { mcpTools, toolOf } from './tools.ts';

export interface ServerOptions {
  /** --course of `codelabgen mcp`, absolute; else a call's course is its `course` argument, $CODELABGEN_COURSE or the client's first root. */
  course: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** Counts calls in flight, so a shutdown can wait for them. */
  track<T>(call: Promise<T>): Promise<T>;
  /** Aborted when the client goes away: every call in flight is cancelled as by notifications/cancelled. */
  closing: AbortSignal;
}

export interface ServerContext {
  server: McpServer;
  options: ServerOptions;
  /** Every tool, in table order. */
  tools: readonly McpTool[];
  /** A call's course: its `course` argument, else the server's --course, else $CODELABGEN_COURSE, else the client's first root. */
  courseOf(args: Record<string, unknown>): Promise<string | undefined>;
  /** Runs a tool's command with the call's arguments (`values`: extra option values). */
  run(
    tool: McpTool,
    args: Record<string, unknown>,
    progress?: (update: ProgressUpdate) => void,
    signal?: AbortSignal,
    values?: Record<string, string>,
  ): Promise<Outcome>;
  /** The lesson ids of a call's course (none when it cannot be read). */
  lessonIdsOf(args: Record<string, unknown>): Promise<string[]>;
  /** The default course's state (state show --json); a refusal throws -32602 (resource-errors.ts). */
  stateOf(): Promise<{ lessons: Record<string, Record<string, unknown>> }>;
  /** The default course's root folder; none found throws -32602 (resource-errors.ts). */
  courseRoot(): Promise<string>;
}

export function commandNamed(name: string): McpTool {
  const spec = COMMANDS.find((command) => command.name === name);
  if (!spec) throw new Error(`no command "${name}" in the table`);
  return toolOf(spec);
}

/** The context of one server: roots are asked once, and again after roots/list_changed. */
export function serverContext(server: McpServer, options: ServerOptions): ServerContext {
  let roots: Promise<string[]> | null = null;
  /** The client's roots that are folders (file: URIs), asked once and again after roots/list_changed. */
  const clientRoots = (): Promise<string[]> => {
    if (!server.server.getClientCapabilities()?.roots) return Promise.resolve([]);
    roots ??= server.server
      .listRoots(undefined, { timeout: 10_000 })
      .then((answer) =>
        answer.roots.filter((root) => root.uri.startsWith('file:')).map((root) => fileURLToPath(root.uri)),
      )
      .catch(() => []);
    return roots;
  };
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    roots = null;
  });
  /** A call's course: its `course` argument, else the server's --course, else $CODELABGEN_COURSE, else the client's first root. */
  const courseOf = async (args: Record<string, unknown>): Promise<string | undefined> => {
    if (typeof args.course === 'string') return path.resolve(options.cwd, args.course);
    if (options.course !== undefined) return options.course;
    if (options.env.CODELABGEN_COURSE) return path.resolve(options.cwd, options.env.CODELABGEN_COURSE);
    return (await clientRoots())[0];
  };
  const run = async (
    tool: McpTool,
    args: Record<string, unknown>,
    progress?: (update: ProgressUpdate) => void,
    signal?: AbortSignal,
    values: Record<string, string> = {},
  ) => {
    const invocation = toInvocation(tool, args, await courseOf(args));
    Object.assign(invocation.values, values);
    return options.track(
      invoke(tool.command, invocation, {
        cwd: options.cwd,
        env: options.env,
        progress,
        signal: signal ? AbortSignal.any([signal, options.closing]) : options.closing,
      }),
    );
  };
  /** The lesson ids of a call's course (none when it cannot be read). */
  const lessonIdsOf = async (args: Record<string, unknown>): Promise<string[]> => {
    const outcome = await run(commandNamed('state show'), args);
    if (outcome.exitCode !== 0) return [];
    return Object.keys((JSON.parse(outcome.stdout) as { lessons: Record<string, unknown> }).lessons);
  };

  const stateOf = async (): Promise<{ lessons: Record<string, Record<string, unknown>> }> => {
    const outcome = await run(commandNamed('state show'), {});
    if (outcome.exitCode !== 0)
      throw commandFailure(outcome.exitCode, inToolTerms(outcome.error ?? `exit ${outcome.exitCode}`));
    return JSON.parse(outcome.stdout) as { lessons: Record<string, Record<string, unknown>> };
  };
  const courseRoot = async (): Promise<string> => {
    const given = await courseOf({});
    try {
      return resolveCourse({ flag: given, env: undefined, cwd: options.cwd }).root;
    } catch (error) {
      throw readFailure(error);
    }
  };
  return { server, options, tools: mcpTools(), courseOf, run, lessonIdsOf, stateOf, courseRoot };
}
