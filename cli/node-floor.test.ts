// One Node floor: package.json's engines.node is the launcher's, and on an older Node (the
// machine's own, or $CODELABGEN_OLD_NODE) the launcher says so in one error line with a fix that
// works from anywhere; run as an MCP server it answers the host's first request with that message
// (a stdio host shows it instead of "Connection closed").
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT, scratchDir } from './testing.ts';

const engines = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;
const FLOOR = /^>=(\d+\.\d+)$/.exec(engines)?.[1];

/** A Node older than the floor: $CODELABGEN_OLD_NODE, else the machine's /usr/bin/node when it is one. */
function oldNode(): string | null {
  for (const candidate of [process.env.CODELABGEN_OLD_NODE, '/usr/bin/node']) {
    if (!candidate) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    const [major, minor] = (version ?? '').replace(/^v/, '').split('.').map(Number);
    const [floorMajor, floorMinor] = FLOOR!.split('.').map(Number);
    if (major !== undefined && (major < floorMajor! || (major === floorMajor && minor! < floorMinor!)))
      return candidate;
  }
  return null;
}

test('package.json engines.node is the floor the launcher and the docs state', () => {
  assert.ok(FLOOR, `engines.node is ${engines}`);
  const launcher = readFileSync(path.join(REPO_ROOT, 'bin', 'codelabgen.cjs'), 'utf8');
  assert.match(launcher, new RegExp(`const NODE_FLOOR = \\[${FLOOR!.replace('.', ', ')}\\];`));
  for (const doc of ['README.md', 'docs/mcp.md', 'docs/site.md', 'docs/deploy/README.md'])
    assert.match(
      readFileSync(path.join(REPO_ROOT, doc), 'utf8'),
      new RegExp(`Node\\.js ${FLOOR!.replace('.', '\\.')}`),
      doc,
    );
});

describe('on a Node older than the floor', { skip: oldNode() === null && 'no Node older than the floor here' }, () => {
  const node = oldNode()!;
  // The launcher as an installed package holds it: no bootstrapped Node 22 beside it.
  const bin = path.join(scratchDir('codelabgen-old-node-'), 'bin', 'codelabgen.cjs');
  mkdirSync(path.dirname(bin), { recursive: true });
  copyFileSync(path.join(REPO_ROOT, 'bin', 'codelabgen.cjs'), bin);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();

  test('a command exits 2 with one error line naming the floor and a fix that works from here', () => {
    const result = spawnSync(node, [bin, 'state', 'show'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      `error: codelabgen needs Node.js ${FLOOR} or later; this is ${version} (${node})\n` +
        'hint: install Node.js 22 LTS (https://nodejs.org/en/download, or: nvm install 22), then run the same command again\n',
    );
  });

  test('an MCP host is answered with the message, not a closed connection', { timeout: 30_000 }, async () => {
    const transport = new StdioClientTransport({ command: node, args: [bin, 'mcp'], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
    // The error line is read to the end of the process's stderr, not as far as it had come when the
    // client's connect failed (a fresh-clone run on a loaded machine read nothing by then).
    const stderrEnded = transport.stderr ? once(transport.stderr, 'end') : Promise.resolve();
    const client = new Client({ name: 'old-node-host', version: '1.0.0' });
    try {
      await assert.rejects(
        client.connect(transport),
        new RegExp(
          `codelabgen needs Node\\.js ${FLOOR!.replace('.', '\\.')} or later; this is ${version.replace(/\./g, '\\.')}`,
        ),
      );
    } finally {
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    }
    await stderrEnded;
    assert.match(stderr, /^error: codelabgen needs Node\.js/m);
  });
});
