// The shape of an MCP tool (cli/mcp/tools.ts builds one per command) and of its parameters: what
// the schema, argument and tool-term modules of cli/mcp/ share.
import type { z } from 'zod';
import type { CommandSpec, OptionSpec } from '../spec.ts';

/** An option's value as the command parser gives it. */
export type Value = string | boolean | string[];

export interface ToolParam {
  /** Property name in the tool's arguments (snake_case). */
  name: string;
  schema: z.ZodType;
  /** A positional (in order), an option (--name), or a document read as stdin by `-`. */
  to:
    | { kind: 'positional' }
    | { kind: 'option'; option: string; spec: OptionSpec }
    | { kind: 'document'; option: string | null }
    | { kind: 'course' };
}

export interface McpTool {
  name: string;
  command: CommandSpec;
  title: string;
  description: string;
  params: ToolParam[];
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}
