// "Course text reaching the terminal", closed by construction (docs/security.md "The terminal"):
// human output goes through cli/output.ts, whose one filter (terminalText) escapes every control
// character. A static scan fails when another module writes to stdout, stderr or the console itself,
// unless it is on TERMINAL_WRITERS with the reason what it writes is safe.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAllowListed } from './source-scan.ts';

const TERMINAL_WRITERS: Record<string, string> = {
  'bin/codelabgen.cjs':
    "the launcher's too-old-Node refusal: its own text with the Node version and path; for `mcp`, the same as JSON-RPC on stdout",
  'cli/mcp/stdio.ts':
    "the MCP server's JSON-RPC stream (JSON.stringify escapes control characters); stray prints go to stderr",
  'pipeline/site/diagram-parse-child.ts':
    'the parse child answers its parent (pipeline/site/diagram-parse.ts) with JSON on a pipe, never a terminal',
  'site/components/DevLive.astro':
    "its <script> runs in the reader's browser under site dev: it says in the page's console why it reloaded or gave up",
  'pipeline/site/integration.ts':
    "site dev's course-watch lines (pipeline/site/dev-watch.ts), each passed through escapeControl() as it is printed",
};

/** How `code` writes to the terminal other than through cli/output.ts, if it does. */
export function terminalWrites(code: string): string[] {
  const pattern =
    /\bprocess\.(?:stdout|stderr)\.write\b|\bconsole\.(?:log|error|warn|info|debug|trace)\s*\(|\bwriteSync\(\s*[12]\s*,/g;
  return [...new Set([...code.matchAll(pattern)].map((match) => match[0].replace(/\s+/g, '')))];
}

test('only cli/output.ts (and the allow-listed sinks) writes to the terminal', () => {
  assertAllowListed({
    sitesOf: terminalWrites,
    allowed: TERMINAL_WRITERS,
    skip: (file) => file === 'cli/output.ts' || file.startsWith('site/client/'),
    unlisted: 'print through ctx.out (cli/output.ts), whose one filter escapes control characters',
    stale: 'these allow-listed files no longer write to the terminal: take them off TERMINAL_WRITERS',
  });
});

test('the scan sees stdout, stderr and console writes', () => {
  assert.deepEqual(terminalWrites('process.stderr.write(`${line}\\n`);'), ['process.stderr.write']);
  assert.deepEqual(terminalWrites("console.log('x'); console.error(e);"), ['console.log(', 'console.error(']);
  assert.deepEqual(terminalWrites('writeSync(1, text);'), ['writeSync(1,']);
  assert.deepEqual(terminalWrites('ctx.out.print(text);'), []);
});
