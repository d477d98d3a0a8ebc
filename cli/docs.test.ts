// docs/cli.md is generated from the command table; this fails when it is stale.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLI_DOC, MCP_DOC, renderCliDoc, renderMcpDoc } from '../scripts/gen-docs.ts';

test('docs/cli.md matches the command table (run: npm run docs)', () => {
  assert.equal(readFileSync(CLI_DOC, 'utf8'), renderCliDoc(), 'docs/cli.md is stale: run "npm run docs"');
});

test('docs/mcp.md lists the MCP tools of the command table (run: npm run docs)', () => {
  const text = readFileSync(MCP_DOC, 'utf8');
  assert.equal(text, renderMcpDoc(text), 'docs/mcp.md is stale: run "npm run docs"');
});
