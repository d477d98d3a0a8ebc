// The MCP server's tools are derived from the command table once per process: a call, a hint in
// tool terms or a resource read must not rebuild them or their zod schemas (docs/performance.md,
// "MCP after profiling the server").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inputSchema } from './mcp/tool-schemas.ts';
import { inToolTerms } from './mcp/tool-terms.ts';
import { mcpTools, toolOf } from './mcp/tools.ts';

test('tools and their strict input schemas are built once per process, not per call', () => {
  const tools = mcpTools();
  assert.equal(mcpTools(), tools, "the table's tools were built again");
  const tool = tools.find((candidate) => candidate.name === 'state_log')!;
  assert.equal(toolOf(tool.command), tool, "a command's tool was built again");
  assert.equal(inputSchema(tool), inputSchema(tool), 'the input schema was built again');
  assert.equal(
    inToolTerms('run codelabgen state phase topics --approved'),
    'run state_phase {"next":"topics","approved":true}',
  );
  assert.equal(mcpTools(), tools);
});
