// The official MCP conformance suite (@modelcontextprotocol/conformance, a pinned devDependency)
// against `codelabgen mcp --http`: the scenarios of the protocol's features this server offers. The
// scenarios that need test-only tools or prompts of the suite's reference server (tools-call-*,
// prompts-get-*, resources-read-*) are not run: codelabgen serves its own tools.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { CLI, scratchCourse, tempDir } from './testing.ts';

const SUITE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

export const SCENARIOS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'completion-complete',
  'tools-list',
  'resources-list',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'server-sse-multiple-streams',
  'server-sse-polling',
  'dns-rebinding-protection',
];

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

function runScenario(
  url: string,
  scenario: string,
  out: string,
): Promise<{ code: number; checks: Check[]; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SUITE, 'server', '--url', url, '--scenario', scenario, '-o', out],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        const dir = readdirSync(out).find((name) => name.startsWith(`server-${scenario}-`));
        const file = dir === undefined ? null : path.join(out, dir, 'checks.json');
        // A scenario killed by its timeout wrote no checks: it fails below by its exit code, with its output.
        const checks = file === null || !existsSync(file) ? [] : (JSON.parse(readFileSync(file, 'utf8')) as Check[]);
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          checks,
          output: `${stdout}${stderr}`,
        });
      },
    );
  });
}

test('the official MCP conformance scenarios pass against codelabgen mcp --http', { timeout: 300_000 }, async (t) => {
  const root = scratchCourse();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'CODELABGEN_COURSE') env[key] = value;
  const server = spawn(process.execPath, [CLI, 'mcp', '--course', root, '--http', '127.0.0.1:0'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  t.after(() => server.kill('SIGKILL')); // also when the test times out (a finally after a hung await never runs)
  try {
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const found = /serving (http:\/\/\S+)/.exec(stderr);
        if (found) resolve(found[1]!);
      });
      server.on('close', () => reject(new Error(`the server ended: ${stderr}`)));
    });
    // The scenarios mostly wait (for streams, retries): four at a time (all at once, on a busy
    // machine, some outlived their minute while their node processes started).
    const results: Array<{ scenario: string; code: number; checks: Check[]; output: string }> = [];
    for (let at = 0; at < SCENARIOS.length; at += 4)
      results.push(
        ...(await Promise.all(
          SCENARIOS.slice(at, at + 4).map(async (scenario) => ({
            scenario,
            ...(await runScenario(url, scenario, tempDir('conformance-'))),
          })),
        )),
      );
    for (const { scenario, code, checks, output } of results) {
      const failed = checks.filter((check) => check.status === 'FAILURE');
      assert.deepEqual(
        failed.map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
        [],
        `${scenario} failed:\n${output.slice(-2000)}`,
      );
      assert.equal(code, 0, `${scenario}: exit ${code}\n${output.slice(-2000)}`);
      if (scenario !== 'server-sse-polling')
        assert.ok(
          checks.some((check) => check.status === 'SUCCESS'),
          `${scenario}: no check passed`,
        );
    }
  } finally {
    server.kill('SIGTERM');
  }
});
