// docs/cli.md and docs/mcp.md's tool list are generated from the command table, the launcher's list of
// the commands dist/state.cjs runs from their registry, docs/verify.md's runtime table from the runtime
// registry; this fails when one is stale.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  CLI_DOC,
  LAUNCHER,
  MCP_DOC,
  renderCliDoc,
  renderLauncher,
  renderMcpDoc,
  renderVerifyDoc,
  VERIFY_DOC,
} from '../scripts/gen-docs.ts';

test('docs/cli.md matches the command table (run: npm run docs)', () => {
  assert.equal(readFileSync(CLI_DOC, 'utf8'), renderCliDoc(), 'docs/cli.md is stale: run "npm run docs"');
});

test('docs/mcp.md lists the MCP tools of the command table (run: npm run docs)', () => {
  const text = readFileSync(MCP_DOC, 'utf8');
  assert.equal(text, renderMcpDoc(text), 'docs/mcp.md is stale: run "npm run docs"');
});

test("the launcher's list of the commands dist/state.cjs runs is the registry's (run: npm run docs)", () => {
  const text = readFileSync(LAUNCHER, 'utf8');
  assert.equal(text, renderLauncher(text), 'bin/codelabgen.cjs is stale: run "npm run docs"');
});

test('docs/verify.md lists the runtimes of content-schemas/runtimes.ts (run: npm run docs)', () => {
  const text = readFileSync(VERIFY_DOC, 'utf8');
  assert.equal(text, renderVerifyDoc(text), 'docs/verify.md is stale: run "npm run docs"');
});
