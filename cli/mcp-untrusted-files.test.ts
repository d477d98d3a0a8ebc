// The MCP server's file resources (codelabgen://report, codelabgen://lesson/{id}/run/{n}) read the
// course's files through the CLI's hardened reader (issue 34, items 4 and 5): a symlink out of
// `.codelabgen/` is refused, not followed; a FIFO or a folder planted where the file belongs is
// refused at once, and the server keeps serving and answers SIGTERM.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serverEnv } from './mcp-client.ts';
import { courseAt } from './protocol-fixture.ts';
import { CLI, removeDir, tempDir } from './testing.ts';

const SECRET = 'secret beside the course: never served';

/** Starts `codelabgen mcp` on `root`; `stop()` kills it (SIGKILL) whatever happened. */
async function serve(root: string): Promise<{ client: Client; pid: number; stop: () => void }> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'CODELABGEN_COURSE' && key !== 'CODELABGEN_TEST_FAULT') env[key] = value;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--course', root],
    cwd: root,
    env: { ...env, NO_COLOR: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'codelabgen-test', version: '1' });
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    client,
    pid,
    stop: () => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}

/**
 * The resource's read, failing (never hanging) when no answer comes within `ms`: a blocked server
 * never answers; a starved one (at nice 10 beside busy cores) took over the 10 s this was, and a
 * test over its 60 s. Waits here are hang guards, as long as mcp.test.ts's.
 */
async function readWithin(client: Client, uri: string, ms = 60_000): Promise<{ text?: string; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${uri} within ${ms} ms: the server is blocked`)), ms);
  });
  try {
    const result = await Promise.race([client.readResource({ uri }), deadline]);
    return { text: String((result.contents[0] as { text?: string }).text) };
  } catch (error) {
    if ((error as Error).message.startsWith('no answer')) throw error;
    return { error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

test('codelabgen://report and a lesson run refuse a symlink out of .codelabgen/ (to a file beside the course, to /etc/passwd)', {
  timeout: 300_000,
}, async (t) => {
  const root = courseAt('lessons');
  const beside = tempDir();
  t.after(() => {
    removeDir(root);
    removeDir(beside);
  });
  writeFileSync(path.join(beside, 'secret.json'), `{"secret": "${SECRET}"}\n`);
  symlinkSync(path.join(beside, 'secret.json'), path.join(root, '.codelabgen', 'report.json'));
  mkdirSync(path.join(root, '.codelabgen', 'runs', '1.1'), { recursive: true });
  symlinkSync('/etc/passwd', path.join(root, '.codelabgen', 'runs', '1.1', '1.json'));
  const server = await serve(root);
  t.after(server.stop);
  const report = await readWithin(server.client, 'codelabgen://report');
  assert.equal(report.text, undefined, `served: ${report.text}`);
  assert.match(report.error ?? '', /\.codelabgen\/report\.json resolves outside \.codelabgen\//);
  const run = await readWithin(server.client, 'codelabgen://lesson/1.1/run/1');
  assert.equal(run.text, undefined, `served: ${run.text}`);
  assert.match(run.error ?? '', /\.codelabgen\/runs\/1\.1\/1\.json resolves outside \.codelabgen\//);
  // A regular report is served as it is.
  rmSync(path.join(root, '.codelabgen', 'report.json'));
  writeFileSync(path.join(root, '.codelabgen', 'report.json'), '{"ok": true}\n');
  assert.deepEqual(await readWithin(server.client, 'codelabgen://report'), { text: '{"ok": true}\n' });
  await server.client.close();
});

test('a FIFO (or a folder) at .codelabgen/report.json is refused at once; the server keeps serving and stops on SIGTERM', {
  timeout: 300_000,
  skip: spawnSync('mkfifo', ['--version']).status !== 0 && 'no mkfifo',
}, async (t) => {
  const root = courseAt('lessons');
  t.after(() => removeDir(root));
  assert.equal(spawnSync('mkfifo', [path.join(root, '.codelabgen', 'report.json')]).status, 0);
  mkdirSync(path.join(root, '.codelabgen', 'runs', '1.1', '1.json'), { recursive: true });
  const server = await serve(root);
  t.after(server.stop);
  const report = await readWithin(server.client, 'codelabgen://report');
  assert.match(report.error ?? '', /\.codelabgen\/report\.json is a named pipe \(FIFO\), not a regular file/);
  const run = await readWithin(server.client, 'codelabgen://lesson/1.1/run/1');
  assert.match(run.error ?? '', /\.codelabgen\/runs\/1\.1\/1\.json is a folder, not a file/);
  const state = await readWithin(server.client, 'codelabgen://state');
  assert.match(state.text ?? '', /"phase": "lessons"/, 'the server keeps serving');
  const exited = new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      try {
        process.kill(server.pid, 0);
      } catch {
        clearInterval(poll);
        resolve();
      }
    }, 20);
    t.after(() => clearInterval(poll));
  });
  process.kill(server.pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    exited,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('the server did not stop on SIGTERM within 60 s')), 60_000);
    }),
  ]);
  clearTimeout(timer);
});

test('a resource whose command refuses (a curriculum symlinked out of the course) is a -32602 with the refusal, not an internal error', {
  timeout: 300_000,
}, async (t) => {
  // Found by the hostile-course fuzzer (cli/hostile-course.test.ts): codelabgen://next answered -32603.
  const root = courseAt('lessons');
  const beside = tempDir();
  t.after(() => {
    removeDir(root);
    removeDir(beside);
  });
  writeFileSync(path.join(beside, 'secret.yaml'), `secret: ${SECRET}\n`);
  rmSync(path.join(root, '.codelabgen', 'curriculum.yaml'));
  symlinkSync(path.join(beside, 'secret.yaml'), path.join(root, '.codelabgen', 'curriculum.yaml'));
  const server = await serve(root);
  t.after(server.stop);
  const next = await readWithin(server.client, 'codelabgen://next');
  assert.equal(next.text, undefined, `served: ${next.text}`);
  assert.match(
    next.error ?? '',
    /^MCP error -32602: (MCP error -32602: )?error: \.codelabgen\/curriculum\.yaml resolves outside the course \(through a symbolic link\)/,
  );
  assert.ok(!next.error?.includes(SECRET), next.error);
  const state = await readWithin(server.client, 'codelabgen://state');
  assert.match(state.text ?? '', /"phase": "lessons"/, 'the server keeps serving');
});

test('a lesson resource of a course whose state.json is a FIFO or a symlink out is a -32602 naming it, at once', {
  timeout: 300_000,
  skip: spawnSync('mkfifo', ['--version']).status !== 0 && 'no mkfifo',
}, async (t) => {
  // Found by the hostile-course fuzzer: codelabgen://lesson/{id} and its runs answered -32603.
  const fifo = courseAt('lessons');
  const linked = courseAt('lessons');
  const beside = tempDir();
  t.after(() => [fifo, linked, beside].forEach(removeDir));
  rmSync(path.join(fifo, '.codelabgen', 'state.json'));
  assert.equal(spawnSync('mkfifo', [path.join(fifo, '.codelabgen', 'state.json')]).status, 0);
  writeFileSync(path.join(beside, 'state.json'), `{"secret": "${SECRET}"}\n`);
  rmSync(path.join(linked, '.codelabgen', 'state.json'));
  symlinkSync(path.join(beside, 'state.json'), path.join(linked, '.codelabgen', 'state.json'));
  for (const [root, problem] of [
    [fifo, /\.codelabgen\/state\.json is not a regular file \(a pipe, device or socket\)/],
    [linked, /\.codelabgen\/state\.json resolves outside the course \(through a symbolic link\)/],
  ] as const) {
    const server = await serve(root);
    t.after(server.stop);
    for (const uri of ['codelabgen://lesson/1.1', 'codelabgen://lesson/1.1/run/1']) {
      const read = await readWithin(server.client, uri);
      assert.equal(read.text, undefined, `served: ${read.text}`);
      assert.match(read.error ?? '', /^MCP error -32602: /, `${uri}: ${read.error}`);
      assert.match(read.error ?? '', problem, uri);
      assert.ok(!read.error?.includes(SECRET), read.error);
    }
    await server.client.close();
  }
});

test('codelabgen://report of a server started outside any course is a -32602 naming the fix', {
  timeout: 300_000,
}, async (t) => {
  const empty = tempDir();
  t.after(() => removeDir(empty));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    cwd: empty,
    env: { ...serverEnv(), CODELABGEN_COURSE: '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'codelabgen-test', version: '1' });
  await client.connect(transport);
  t.after(() => client.close());
  const report = await readWithin(client, 'codelabgen://report');
  assert.equal(report.text, undefined, `served: ${report.text}`);
  assert.match(report.error ?? '', /^MCP error -32602: .*not a course directory|^MCP error -32602: .*no course/);
});
