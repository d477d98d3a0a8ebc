// `codelabgen mcp` through the SDK's own client over stdio: a course driven through every phase and
// stage by tool calls, refusals that change nothing and say what the CLI says, the same JSON as the
// CLI, a CLI writer beside an MCP client, malformed input, and a client that goes away.
import { ROLES } from '../content-schemas/index.ts';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { after, before, describe, type TestContext, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { MACHINE_PROBES } from '../pipeline/verify/runtime.ts';
import { findBwrap, probeBwrap } from '../pipeline/verify/sandbox.ts';
import { COMMANDS } from './commands.ts';
import { toInvocation } from './mcp/tool-arguments.ts';
import { inToolTerms } from './mcp/tool-terms.ts';
import { mcpTools, NOT_TOOLS, toolName } from './mcp/tools.ts';
import { elicitingClient, postInitialize, progressSentTo } from './mcp-client.ts';
import {
  advance,
  ARTIFACTS_BY_PHASE,
  CURRICULUM,
  LESSON_DIRS,
  ok as cliOk,
  PHASES_TO_LESSONS,
  write,
  writeStageArtifact,
} from './protocol-fixture.ts';
import {
  CLI,
  type CliResult,
  cliAsync,
  copyOfCourse,
  initCourse,
  readEvents,
  readState,
  snapshot,
  tempDir,
} from './testing.ts';

type Result = { content: Array<{ type: string; text: string }>; isError?: boolean; _meta?: Record<string, unknown> };

function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'CODELABGEN_COURSE' && key !== 'CODELABGEN_TEST_FAULT') env[key] = value;
  return { ...env, NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '10' };
}

/** A client of `codelabgen mcp --course root` over stdio; closed (the server with it) when test `t` ends, whatever happens. */
async function connect(root: string, t?: TestContext, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'codelabgen-test', version: '1' });
  t?.after(() => client.close());
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--course', root],
      cwd: root,
      env: { ...serverEnv(), ...env },
      stderr: 'ignore',
    }),
  );
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void,
): Promise<Result> {
  return (await client.callTool(
    { name, arguments: args },
    undefined,
    onprogress ? { onprogress } : undefined,
  )) as Result;
}

/** A tool call that must succeed; returns its JSON document. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await call(client, name, args);
  assert.equal(
    result.isError,
    false,
    `${name} ${JSON.stringify(args)}: ${result.content.map((item) => item.text).join('\n')}`,
  );
  return JSON.parse(result.content[0]!.text);
}

/** A tool call that must be refused: isError, the CLI's error line (the same text the CLI prints), and no file changed. */
async function refused(
  client: Client,
  root: string,
  name: string,
  args: Record<string, unknown>,
  pattern: RegExp,
): Promise<void> {
  const before = snapshot(root);
  const result = await call(client, name, args);
  assert.equal(result.isError, true, `${name} was not refused`);
  assert.equal(result._meta?.['codelabgen/exit_code'], 2);
  const text = result.content.at(-1)!.text;
  assert.match(text, /^error: /);
  assert.match(text.split('\n')[0]!, pattern);
  assert.deepEqual(snapshot(root), before, `refused ${name} changed files`);
  const tool = mcpTools().find((candidate) => candidate.name === name)!;
  const invocation = toInvocation(tool, args, undefined);
  const viaCli = await cliRun(invocation.argv, root, invocation.stdin ?? undefined);
  assert.equal(viaCli.code, 2);
  assert.equal(
    inToolTerms(viaCli.stderr),
    `${text}\n`,
    'the CLI refuses with the same text (command lines written as tool calls)',
  );
  assert.deepEqual(snapshot(root), before);
}

/**
 * The CLI, run without blocking the event loop: a synchronous run would stall the tests running
 * beside this one (their servers' messages, their waits) for as long as the command takes.
 */
function cliRun(args: readonly string[], cwd: string, input?: string): Promise<CliResult> {
  return cliAsync(args, { cwd, input, timeoutMs: 180_000 }).done;
}

/** Runs the CLI in `root` and asserts that it succeeded. */
async function cliOkAsync(root: string, ...args: string[]): Promise<void> {
  const result = await cliRun(args, root);
  assert.equal(result.code, 0, `codelabgen ${args.join(' ')}: ${result.stderr}`);
}

/** The config of the courses here: lesson tests are a real process (node --test), as cli/protocol-fixture.ts makes them. */
const NODE_TEST_CONFIG = 'schema_version: 1\nruntime: custom\ntest_command: [node, --test]\n';
const BUDGETS = 'budgets: { fix_attempts: 3, review_rounds: 1, parallel: 3 }\n';
/** The server's environment that runs lesson tests without the sandbox (a course's `verify.sandbox: off` is not honoured). */
const UNSANDBOXED = { CODELABGEN_SANDBOX: 'off' };

/** Whether bwrap can build the sandbox on this machine (the MCP server's verify runs in it). */
function bwrapUsable(): boolean {
  const bwrap = findBwrap(process.env, MACHINE_PROBES.isExecutable);
  return bwrap !== null && probeBwrap(bwrap).usable;
}

/** Where the prepared courses stand: a phase (at `lessons`, registered), or `code`: lessons 1.1 and 1.2 at code. */
const PREPARED = ['init', 'gate_sources', 'scaffold', 'lessons', 'code'] as const;
type Prepared = (typeof PREPARED)[number];

/** Temp folders of this file's courses, removed when its tests end. */
const madeDirs: string[] = [];

/**
 * A copy of the course "Streams" at `at`, with `config` added to its config.yaml. Each is made once
 * per file by the CLI calls a course takes to get there, from a copy of the one before it in
 * PREPARED: a test copies its course rather than making it again.
 */
function preparedCourse(at: Prepared, config = ''): string {
  const root = copyOfCourse(`mcp.test ${at}`, (template) => makePrepared(template, at));
  madeDirs.push(path.dirname(root));
  write(root, '.codelabgen/config.yaml', `${NODE_TEST_CONFIG}${config}`);
  return root;
}

function makePrepared(root: string, at: Prepared): void {
  const previous = PREPARED[PREPARED.indexOf(at) - 1];
  if (previous === undefined) {
    initCourse(root, 'Streams');
    write(root, '.codelabgen/config.yaml', NODE_TEST_CONFIG);
    return;
  }
  const from = preparedCourse(previous);
  renameSync(from, root);
  if (at === 'code') {
    advance(root, '1.1', 'code');
    advance(root, '1.2', 'code');
    return;
  }
  const walk = PHASES_TO_LESSONS.slice(PHASES_TO_LESSONS.indexOf(previous) + 1, PHASES_TO_LESSONS.indexOf(at) + 1);
  for (const next of walk) {
    const current = readState(root).phase as string;
    ARTIFACTS_BY_PHASE[current]?.(root); // at scaffold: `register`
    cliOk(root, 'state', 'phase', next, ...(current.startsWith('gate_') ? ['--approved'] : []));
  }
}

let slowTests = 0;

/** Adds to lesson `id` a test that waits a minute; returns its file name, unique in this run (what `running()` looks for). */
function addSlowTest(root: string, id = '1.1'): string {
  slowTests += 1;
  const marker = `slow-${process.pid}-${slowTests}.test.mjs`;
  write(
    root,
    `${LESSON_DIRS[id]}/${marker}`,
    "import test from 'node:test';\ntest('slow', () => new Promise((resolve) => setTimeout(resolve, 60_000)));\n",
  );
  return marker;
}

/** What a passing publish build records (tests here do not run Astro; cli/protocol.test.ts does). */
function recordSiteBuild(root: string): void {
  const state = readState(root) as { last_seq: number };
  const event = {
    seq: state.last_seq + 1,
    ts: new Date().toISOString(),
    pid: process.pid,
    command: 'codelabgen site build',
    kind: 'site.build',
    out: '/tmp/site-out',
    pages: 5,
    lessons: ['1.1', '1.2', '2.1'],
  };
  appendFileSync(path.join(root, '.codelabgen', 'events.jsonl'), `${JSON.stringify(event)}\n`);
}

/** Whether a process whose command line holds `marker` is running (the sandbox's processes included). */
function running(marker: string): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  for (const deadline = Date.now() + ms; !condition(); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms / 1000} s`);
  }
}

/**
 * Stops a server when test `t` ends, also when it times out (a `finally` after a hung await never
 * runs): SIGTERM, so that it ends the lesson tests it runs, then SIGKILL if it is still there 10 s on.
 */
function stopWhenTestEnds(t: TestContext, server: ChildProcess): void {
  t.after(async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
    clearTimeout(timer);
    server.kill('SIGKILL');
  });
}

/** A server spoken to in raw JSON-RPC lines over its stdio, initialized; killed when test `t` ends. */
async function rawServer(t: TestContext, root: string, env: Record<string, string> = {}) {
  const server = spawn(process.execPath, [CLI, 'mcp', '--course', root], {
    cwd: root,
    env: { ...serverEnv(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  stopWhenTestEnds(t, server);
  const lines: any[] = [];
  let buffered = '';
  const waiters: Array<() => void> = [];
  server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, at))); // every stdout line is JSON: nothing else reaches it
      buffered = buffered.slice(at + 1);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => server.on('close', (code) => resolve(code)));
  /** Writes one line as it is (malformed input too). */
  const sendText = (text: string) => server.stdin.write(`${text}\n`);
  const send = (message: Record<string, unknown>) => sendText(JSON.stringify({ jsonrpc: '2.0', ...message }));
  /** The first line `match` takes, once it has come. */
  const answerWhere = async (match: (line: any) => boolean): Promise<any> => {
    for (;;) {
      const found = lines.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const answer = (id: number): Promise<any> => answerWhere((line) => line.id === id);
  send({
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await answer(0);
  send({ method: 'notifications/initialized' });
  return { server, send, sendText, answer, answerWhere, exited, lines };
}

/**
 * Lessons 1.1 and 1.2 at code, 1.1 with a test that waits a minute (named `marker`), and the course's
 * files before any call; its tests start a server with UNSANDBOXED.
 */
function slowVerifyCourse(): { root: string; marker: string; before: ReturnType<typeof snapshot> } {
  const root = preparedCourse('code', BUDGETS);
  const marker = addSlowTest(root);
  const before = snapshot(root);
  return { root, marker, before };
}

/** A call refused for its arguments before anything ran: isError, exit code 2, one `error:` line, no file changed. */
async function refusedArguments(
  client: Client,
  roots: string[],
  name: string,
  args: Record<string, unknown>,
  pattern: RegExp,
): Promise<string> {
  const before = roots.map((root) => snapshot(root));
  const result = await call(client, name, args);
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} was not refused`);
  assert.equal(result._meta?.['codelabgen/exit_code'], 2);
  const text = result.content.map((item) => item.text).join('\n');
  assert.match(text, pattern);
  assert.equal(text.split('\n').length, 1, text);
  assert.deepEqual(
    roots.map((root) => snapshot(root)),
    before,
    `refused ${name} changed files`,
  );
  return text;
}

/** `codelabgen mcp --http 127.0.0.1:0` in `root`, killed when test `t` ends; resolves with its URL once it listens. */
async function httpServer(
  t: TestContext,
  root: string,
  env: Record<string, string> = {},
): Promise<{ url: string; server: ReturnType<typeof spawn>; exited: Promise<number | null> }> {
  const server = spawn(process.execPath, [CLI, 'mcp', '--course', root, '--http', '127.0.0.1:0'], {
    cwd: root,
    env: { ...serverEnv(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  stopWhenTestEnds(t, server);
  const exited = new Promise<number | null>((resolve) => server.on('close', (code) => resolve(code)));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /serving (http:\/\/\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    server.on('close', () => reject(new Error(`the server ended: ${stderr}`)));
  });
  return { url, server, exited };
}

/**
 * fetch for the tests' HTTP clients: a request whose connection was closed under it is sent once
 * more. Under load a client can send on a kept-alive connection the server is closing (idle past
 * its keep-alive timeout); that request never reached the server. (One that did and is sent again
 * would show as an event too many: the tests count them.)
 */
const httpFetch: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw error;
    return fetch(input, init);
  }
};

async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'codelabgen-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: httpFetch }));
  return client;
}

/** A client in a process of its own that connects over HTTP and calls `verify --all`; kill -9 it to drop its connection without a DELETE. */
function httpClientProcess(t: TestContext, url: string): { host: ReturnType<typeof spawn>; connected: Promise<void> } {
  const sdk = (file: string) => JSON.stringify(import.meta.resolve(`@modelcontextprotocol/sdk/${file}`));
  const code = `import { Client } from ${sdk('client/index.js')};
import { StreamableHTTPClientTransport } from ${sdk('client/streamableHttp.js')};
const client = new Client({ name: 'killed-host', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[1])));
process.stdout.write('connected\\n');
await client.callTool({ name: 'verify', arguments: { all: true, update_state: true, jobs: 1 } }, undefined, { timeout: 120_000 });
process.stdout.write('answered\\n');`;
  const host = spawn(process.execPath, ['--input-type=module', '-e', code, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => host.kill('SIGKILL'));
  const connected = new Promise<void>((resolve, reject) => {
    host.stdout!.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('connected') && resolve());
    host.on('close', (status) => reject(new Error(`the client process ended (${status}) before it connected`)));
  });
  return { host, connected };
}

// The tests run at once: most of their time is spent waiting (for servers to start, lesson tests,
// a site build, the HTTP server's grace period), each on a course and a server of its own, except
// the ones that share one server below. The longest first.
describe('codelabgen mcp', { concurrency: true }, () => {
  // Every prepared course made before the tests start (by synchronous CLI runs, which would stall the tests running).
  before(() => preparedCourse('code'));
  after(() => {
    for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('one server without a course takes a course from an empty folder to a published site by tool calls, and serves a second course by its course argument', {
    timeout: 300_000,
  }, async (t) => {
    const home = tempDir();
    madeDirs.push(home);
    const root = path.join(home, 'streams');
    const other = preparedCourse('init');
    write(other, '.codelabgen/config.yaml', 'schema_version: 1\nruntime: node\n'); // a runtime with a lesson template
    // No --course: the client's first root is the default course.
    const client = new Client({ name: 'codelabgen-test', version: '1' }, { capabilities: { roots: {} } });
    t.after(() => client.close());
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: pathToFileURL(root).href, name: 'streams' }],
    }));
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp'],
        cwd: home,
        env: serverEnv(),
        stderr: 'ignore',
      }),
    );
    try {
      // Listing the tools makes the SDK's client check every structuredContent against its tool's outputSchema.
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name),
        ['conventions'],
      );
      assert.equal(
        (tools.find((tool) => tool.name === 'state_show')!.outputSchema as { title?: string }).title,
        'state',
      );
      assert.match(
        tools.find((tool) => tool.name === 'state_phase')!.description!,
        /leaving a gate \(gate_sources, gate_plan\) needs `approved: true`/,
      );
      assert.equal((await ok(client, 'init', { title: 'Streams', runtime: 'custom' })).course, root);
      write(root, '.codelabgen/config.yaml', 'schema_version: 1\nruntime: custom\ntest_command: [node, --test]\n');
      for (const next of PHASES_TO_LESSONS) {
        const current = readState(root).phase as string;
        if (current === 'scaffold') await ok(client, 'register');
        else ARTIFACTS_BY_PHASE[current]?.(root);
        await ok(client, 'state_phase', { next, approved: current.startsWith('gate_') });
      }
      for (const id of ['1.1', '1.2', '2.1']) {
        for (const stage of ['spec', 'code', 'verified', 'readalong', 'notes', 'reviewed', 'done']) {
          writeStageArtifact(root, id, stage);
          if (stage === 'verified')
            assert.equal((await ok(client, 'verify', { id, update_state: true })).state, 'verified');
          else await ok(client, 'state_set', { id, stage });
        }
      }
      await ok(client, 'state_phase', { next: 'assembly' });
      // site_build refuses what the CLI refuses (an --out inside the course), with progress per step otherwise.
      const beforeRefusal = snapshot(root);
      const inside = await call(client, 'site_build', { out: path.join(root, 'site') });
      assert.equal(inside.isError, true);
      assert.match(inside.content.at(-1)!.text, /^error: `out: ".*"` is inside the course directory/);
      assert.deepEqual(snapshot(root), beforeRefusal);
      // A cancelled build stops (its process group) and records nothing.
      const controller = new AbortController();
      const cancelledBuild = client
        .callTool({ name: 'site_build', arguments: { out: path.join(home, 'site') } }, undefined, {
          signal: controller.signal,
          onprogress: () => controller.abort(),
        })
        .then(
          () => 'answered',
          () => 'rejected',
        );
      assert.equal(await cancelledBuild, 'rejected');
      assert.equal((await ok(client, 'state_next')).phase, 'assembly', 'the server serves after the cancel');
      await until(() => !running(path.join(home, 'site')), 10_000, 'the cancelled build stopped');
      assert.equal(
        readEvents(root).some((event) => event.kind === 'site.build'),
        false,
      );
      assert.equal(existsSync(path.join(home, 'site')), false);
      const steps: string[] = [];
      const built = await call(client, 'site_build', { out: path.join(home, 'site') }, (update) =>
        steps.push(update.message ?? ''),
      );
      assert.equal(built.isError, false, built.content.map((item) => item.text).join('\n'));
      assert.deepEqual(JSON.parse(built.content[0]!.text).lessons, ['1.1', '1.2', '2.1']);
      assert.ok(existsSync(path.join(home, 'site', 'index.html')));
      // In order, and at least through `pages`: the SDK client runs a notification's handler a tick
      // after it reads it but a response at once, and drops a call's progress handler with its
      // response, so the updates that arrive in the same read as the result are not seen. `search` and
      // `done` come in the build's last fraction of a second: at load both can share that read (a
      // fresh-clone CI run saw loading, diagrams, pages); `pages` comes before the pages are rendered.
      const seen = steps.map((step) => step.split(':')[0]);
      assert.deepEqual(seen, ['loading', 'diagrams', 'pages', 'search', 'done'].slice(0, Math.max(3, seen.length)));
      assert.equal((await ok(client, 'report')).totals.done, 3);
      await ok(client, 'state_phase', { next: 'done' });
      assert.equal(readState(root).phase, 'done');
      assert.equal((await ok(client, 'check')).ok, true);
      assert.equal(readEvents(root).filter((event) => event.kind === 'site.build').length, 1);
      // state_rebuild replays the log to the same state.
      const before = readState(root);
      await ok(client, 'state_rebuild');
      assert.deepEqual(readState(root), before);

      // The same server, another course: authoring tools by the course argument, the first course untouched.
      const untouched = snapshot(root);
      const module = await ok(client, 'new_module', { course: other, title: 'Composing streams' });
      const lesson = await ok(client, 'new_lesson', {
        course: other,
        module_id: module.module.id,
        title: 'Async iteration',
      });
      assert.deepEqual(
        Object.keys(readState(other).lessons as object).sort(),
        [module.lesson.id, lesson.lesson.id].sort(),
      );
      assert.deepEqual(snapshot(root), untouched);
    } finally {
      await client.close();
    }
  });

  test('an MCP client drives a course through every phase and stage; refusals change nothing; CLI and server give the same JSON', {
    timeout: 300_000,
  }, async (t) => {
    const root = preparedCourse('init');
    const client = await connect(root, t);
    try {
      await refused(client, root, 'state_phase', { next: 'sources' }, /^error: /);
      for (const next of PHASES_TO_LESSONS) {
        const current = readState(root).phase as string;
        if (current === 'scaffold') {
          await refused(
            client,
            root,
            'state_phase',
            { next },
            /cannot leave scaffold: lesson 1\.1: in the curriculum but not registered/,
          );
          const registered = await ok(client, 'register');
          assert.deepEqual(registered.added, ['1.1', '1.2', '2.1']);
          assert.equal((await ok(client, 'register')).seq, null, 'registering again changes nothing');
        } else ARTIFACTS_BY_PHASE[current]?.(root);
        if (current === 'recon') {
          const { task } = await ok(client, 'state_task_start', { phase: 'recon', role: 'researcher' });
          await ok(client, 'state_task_done', { task: task.id, note: 'overview written' });
        }
        if (current.startsWith('gate_')) {
          await refused(
            client,
            root,
            'state_phase',
            { next },
            new RegExp(`needs the user's approval: state_phase \\{"next":"${next}","approved":true\\}$`),
          );
          const plan = await ok(client, 'state_next');
          assert.deepEqual(plan.next_call, { tool: 'state_phase', arguments: { next, approved: true } });
          assert.equal(plan.next_step, `ask the user to approve, then: state_phase {"next":"${next}","approved":true}`);
        }
        const moved = await ok(client, 'state_phase', { next, approved: current.startsWith('gate_') });
        assert.deepEqual([moved.from, moved.to], [current, next]);
      }

      const next = await ok(client, 'state_next');
      assert.deepEqual(
        next.lessons.map((item: { lesson: string }) => item.lesson),
        ['1.1', '2.1'],
      );
      assert.deepEqual(next.next_call, { tool: 'state_task_start', arguments: { lesson: '1.1' } });
      const progress: Array<{ progress: number; total?: number; message?: string }> = [];
      const progressSent = progressSentTo(client);
      for (const id of ['1.1', '1.2', '2.1']) {
        const { task } = await ok(client, 'state_task_start', { lesson: id });
        writeStageArtifact(root, id, 'spec');
        const status = { lesson: id, status: 'ok', stage: 'spec', artifacts: [`.codelabgen/lessons/${id}/spec.yaml`] };
        assert.deepEqual(await ok(client, 'status_check', { status }), status);
        const done = await ok(client, 'state_task_done', {
          task: task.id,
          result: `Wrote the spec.\n\`\`\`json\n${JSON.stringify(status)}\n\`\`\``,
        });
        assert.deepEqual(done.task.result, status);
        for (const stage of ['spec', 'code', 'verified', 'readalong', 'notes', 'reviewed', 'done']) {
          writeStageArtifact(root, id, stage);
          if (stage === 'verified') {
            const run = (await call(
              client,
              'verify',
              { id, update_state: true },
              id === '1.1' ? (update) => progress.push(update) : undefined,
            )) as Result;
            assert.equal(run.isError, false, run.content.map((item) => item.text).join('\n'));
            assert.equal(JSON.parse(run.content[0]!.text).state, 'verified');
          } else {
            if (stage === 'readalong' && id === '1.1')
              await refused(
                client,
                root,
                'state_set',
                { id, stage: 'done' },
                /^error: lesson 1\.1 is at verified: stages move forward one at a time; the next stage is readalong$/,
              );
            assert.equal((await ok(client, 'state_set', { id, stage })).stage, stage);
          }
        }
      }
      assert.deepEqual(
        progressSent.map((update) => [update.progress, update.total]),
        [
          [1, 2],
          [2, 2],
        ],
        'verify sends progress: started, finished',
      );
      assert.match(progressSent[1]!.message ?? '', /lesson 1\.1: passed/);
      // The server sends progress only for a call that asked for it (a progressToken, which the SDK's
      // client sets when the call has an onprogress). The call's onprogress sees them in order, all
      // but those read together with the result (none when the tests ran fast: see progressSentTo()).
      const tokens = progressSent.map((update) => (update as { progressToken?: unknown }).progressToken);
      assert.ok(tokens[0] !== undefined && tokens.every((token) => token === tokens[0]), `progress tokens ${tokens}`);
      const fields = (update: { progress: number; total?: number; message?: string }) =>
        [update.progress, update.total, update.message] as const;
      assert.deepEqual(progress.map(fields), progressSent.slice(0, progress.length).map(fields));

      await ok(client, 'state_log', {
        kind: 'source-unreachable',
        lesson: '1.2',
        data: { url: 'https://example.com', status: '404' },
      });
      await ok(client, 'state_phase', { next: 'assembly' });
      await refused(
        client,
        root,
        'state_phase',
        { next: 'done' },
        /cannot leave assembly: no successful site build recorded yet \(and 1 more\)/,
      );
      const report = await ok(client, 'report');
      assert.equal(report.totals.done, 3);
      assert.equal(report.facts[0].kind, 'source-unreachable');
      recordSiteBuild(root);
      await ok(client, 'report');
      await ok(client, 'state_phase', { next: 'done' });
      assert.equal(readState(root).phase, 'done');
      assert.equal((await ok(client, 'check')).ok, true);

      // Every change went through the same commit as the CLI, recorded with the equivalent command line.
      const events = readEvents(root);
      assert.deepEqual(
        events.map((event) => event.seq),
        events.map((_, index) => index + 1),
      );
      assert.ok(events.some((event) => event.command === 'codelabgen state set 1.2 readalong --json'));
      assert.ok(
        events.some(
          (event) =>
            event.command === 'codelabgen verify 2.1 --update-state --json' && event.kind === 'lesson.verified',
        ),
      );

      // Refusals of other kinds: a document that fails its schema as text, an unknown task, a wrong verify call.
      await refused(
        client,
        root,
        'status_check',
        { status: '{"lesson": "1.2", "status": "maybe"}' },
        /^error: \(stdin\)/,
      );
      await refused(client, root, 'state_task_done', { task: 't99' }, /^error: /);
      await refused(client, root, 'verify', {}, /^error: verify: give one lesson id or `all: true`$/);
      const invalid = await call(client, 'state_set', { id: '1.1', stage: 'finished' });
      assert.equal(invalid.isError, true, 'arguments outside the input schema are refused');

      // Parity: the same documents through the CLI.
      const stages = await ok(client, 'state_stages');
      assert.equal(JSON.stringify(stages).includes('codelabgen '), false, 'state_stages in tool terms');
      assert.match(JSON.stringify(stages), /state_set \{\\"id\\":\\"<id>\\",\\"stage\\":\\"spec\\"\}/);
      for (const [name, args] of [
        ['state_show', {}],
        ['state_task_list', { open: true }],
        ['schema_show', { name: 'worker-status' }],
        ['conventions', { topic: 'readalong' }],
        ['check', {}],
      ] as const) {
        const tool = mcpTools().find((candidate) => candidate.name === name)!;
        const viaCli = await cliRun(toInvocation(tool, args, undefined).argv, root);
        assert.equal(viaCli.code, 0, viaCli.stderr);
        const viaMcp = (await call(client, name, args)) as Result & { structuredContent?: unknown };
        assert.equal(viaMcp.content[0]!.text, viaCli.stdout.trimEnd(), `${name}: CLI and MCP differ`);
        assert.deepEqual(
          viaMcp.structuredContent,
          name === 'conventions' ? { text: viaCli.stdout } : JSON.parse(viaCli.stdout),
          `${name}: structuredContent`,
        );
      }

      // Resources and the prompt.
      const uris = (await client.listResources()).resources.map((resource) => resource.uri);
      for (const uri of [
        'codelabgen://state',
        'codelabgen://next',
        'codelabgen://conventions/readalong',
        'codelabgen://schema/worker-status',
      ])
        assert.ok(uris.includes(uri), uri);
      const nextResource = await client.readResource({ uri: 'codelabgen://next' });
      assert.deepEqual(JSON.parse((nextResource.contents[0] as { text: string }).text), await ok(client, 'state_next'));
      const state = await client.readResource({ uri: 'codelabgen://state' });
      assert.equal(JSON.parse((state.contents[0] as { text: string }).text).phase, 'done');
      const prompt = await client.getPrompt({ name: 'orchestrate' });
      assert.match(
        (prompt.messages[0]!.content as { text: string }).text,
        /^## For orchestrator agents\n\nYou drive a course from `init` to `done` with this server.s tools/,
      );
    } finally {
      await client.close();
    }
  });

  test('over HTTP, a client killed during verify --all (no DELETE) has the call cancelled: the test stops, nothing is recorded, other sessions are served', {
    timeout: 300_000,
    skip: process.platform !== 'linux' && 'reads /proc',
  }, async (t) => {
    const { root, marker, before } = slowVerifyCourse();
    const { url, server } = await httpServer(t, root, UNSANDBOXED);
    const other = await httpClient(url);
    const { host, connected } = httpClientProcess(t, url);
    try {
      await connected;
      await until(() => running(marker), 60_000, 'the lesson test started');
      host.kill('SIGKILL');
      // The server waits DROP_GRACE_MS (5 s) for the client to come back, then cancels the call.
      await until(() => !running(marker), 20_000, 'the lesson test stopped after its client was killed');
      await new Promise((resolve) => setTimeout(resolve, 500)); // no lesson after it starts either
      assert.equal(running(marker), false);
      assert.deepEqual(snapshot(root), before, "the killed client's verify recorded something");
      // The server keeps serving: a session opened before the kill, and a new one.
      assert.equal((await ok(other, 'state_show')).lessons['1.1'].stage, 'code');
      const fresh = await httpClient(url);
      assert.equal((await ok(fresh, 'state_next')).phase, 'lessons');
      await fresh.close();
    } finally {
      host.kill('SIGKILL');
      await other.close();
      server.kill('SIGTERM');
    }
  });

  test('over HTTP, a client whose stream drops and that resumes it (Last-Event-ID) keeps its call running', {
    timeout: 300_000,
    skip: process.platform !== 'linux' && 'reads /proc',
  }, async (t) => {
    const { root, marker } = slowVerifyCourse();
    const { url, server } = await httpServer(t, root, UNSANDBOXED);
    const version = '2025-11-25'; // resumable streams: the server sends each stream's first event id
    let session = '';
    /** A raw request; resolves at its response's head (`wait: 'head'`), its first SSE event id (`'id'`) or its whole body. */
    const send = (
      method: string,
      body: unknown,
      headers: Record<string, string> = {},
      wait: 'head' | 'id' | 'body' = 'body',
    ) =>
      new Promise<{ status: number; text: string; request: ReturnType<typeof httpRequest> }>((resolve, reject) => {
        const request = httpRequest(
          url,
          {
            method,
            // A connection of its own: a kept-alive one can be closed by the server (idle for its
            // keep-alive timeout, as across the sleep below) just as the request is sent on it (at load).
            agent: false,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'mcp-protocol-version': version,
              ...(session && { 'mcp-session-id': session }),
              ...headers,
            },
          },
          (response) => {
            session ||= String(response.headers['mcp-session-id'] ?? '');
            if (wait === 'head') resolve({ status: response.statusCode ?? 0, text: '', request });
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => {
              text += chunk;
              if (wait === 'id' && /^id: /m.test(text)) resolve({ status: response.statusCode ?? 0, text, request });
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text, request }));
            response.on('error', () => {});
          },
        );
        request.on('error', (error) => (wait === 'body' ? reject(error) : undefined));
        request.end(body === undefined ? undefined : JSON.stringify(body));
      });
    try {
      await send('POST', {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      assert.notEqual(session, '');
      await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' });
      const call = await send(
        'POST',
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'verify', arguments: { id: '1.1', update_state: true } },
        },
        {},
        'id',
      );
      const lastEventId = /^id: (.+)$/m.exec(call.text)![1]!;
      await until(() => running(marker), 60_000, 'the lesson test started');
      call.request.destroy(); // the connection drops ...
      const droppedAt = Date.now();
      // ... and the client comes back at once. A server that has not seen the drop yet answers 409 (the
      // stream is still connected) and the client tries again, as a reconnecting client does. The
      // server counts the first try as the return whenever it reads it: no timer of this test stands
      // between the drop and the return (a 1 s wait here ran 4 s late on a loaded CI machine, past
      // the server's grace).
      let resumed = await send('GET', undefined, { 'last-event-id': lastEventId }, 'head');
      const resumedAfter = Date.now() - droppedAt;
      for (let tries = 1; resumed.status === 409 && tries < 100; tries += 1) {
        resumed.request.destroy();
        await new Promise((resolve) => setTimeout(resolve, 100));
        resumed = await send('GET', undefined, { 'last-event-id': lastEventId }, 'head');
      }
      assert.equal(resumed.status, 200, 'the server resumes the stream once it has seen the drop');
      const waited = Date.now() - droppedAt;
      // 6.5 s after the drop: past the grace period (DROP_GRACE_MS)
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 6_500 - waited)));
      assert.equal(
        running(marker),
        true,
        `the call of a client that came back was cancelled (this test's resume answered ${resumedAfter} ms after the drop)`,
      );
      resumed.request.destroy();
      assert.equal((await send('DELETE', undefined)).status, 200); // ending the session cancels it
      await until(() => !running(marker), 10_000, 'the lesson test stopped after the session ended');
    } finally {
      server.kill('SIGTERM');
    }
  });

  test('a verify call the client cancels stops its tests and records nothing; the server keeps serving', {
    timeout: 300_000,
    skip: process.platform !== 'linux' && 'reads /proc',
  }, async (t) => {
    const root = preparedCourse('code', BUDGETS);
    const marker = addSlowTest(root);
    const client = await connect(root, t);
    try {
      const before = snapshot(root);
      const controller = new AbortController();
      const call = client
        .callTool({ name: 'verify', arguments: { id: '1.1', update_state: true } }, undefined, {
          signal: controller.signal,
          timeout: 90_000,
        })
        .then(
          () => 'answered',
          () => 'rejected',
        );
      await until(() => running(marker), 60_000, 'the lesson test started');
      controller.abort();
      assert.equal(await call, 'rejected', 'the cancelled call was answered');
      await until(() => !running(marker), 10_000, 'the lesson test stopped after the cancel');
      // The server serves the next call, and the cancelled one left no run result, event or state change.
      assert.equal((await ok(client, 'state_show')).lessons['1.1'].stage, 'code');
      assert.deepEqual(snapshot(root), before, 'the cancelled verify recorded something');
    } finally {
      await client.close();
    }
  });

  test("a course's verify.sandbox: off is not honoured over MCP either: verify runs in the sandbox, and its result says so", {
    timeout: 300_000,
    skip: !bwrapUsable() && 'bubblewrap is not usable here; install it (apt-get install bubblewrap) to run this test',
  }, async (t) => {
    const root = preparedCourse('code', `${BUDGETS}verify: { sandbox: off }\n`);
    const client = await connect(root, t);
    const run = await call(client, 'verify', { id: '1.2' });
    assert.equal(run.isError, false, run.content.map((item) => item.text).join('\n'));
    assert.equal(JSON.parse(run.content[0]!.text).sandbox, 'bwrap');
    assert.equal(
      run.content.at(-1)!.text,
      'warning: verify.sandbox is off in .codelabgen/config.yaml, but a course cannot turn the sandbox off: lesson tests run in the sandbox\n' +
        'hint: to run them without it on this machine, set CODELABGEN_SANDBOX=off',
    );
  });

  test('a client that goes away during verify --all cancels it: tests stop, nothing is recorded, no lesson runs after (unsandboxed)', {
    timeout: 300_000,
    skip: process.platform !== 'linux' && 'reads /proc',
  }, async (t) => {
    const { root, marker, before } = slowVerifyCourse();
    const { server, send, exited } = await rawServer(t, root, UNSANDBOXED);
    try {
      send({
        id: 1,
        method: 'tools/call',
        params: { name: 'verify', arguments: { all: true, update_state: true, jobs: 1 } },
      });
      await until(() => running(marker), 60_000, 'the lesson test started');
      server.stdin.end();
      assert.equal(await exited, 0);
      assert.equal(running(marker), false, 'the lesson test still runs');
      // Neither the killed lesson (no lesson.fail, no fix attempt used) nor the lesson after it recorded anything.
      assert.deepEqual(snapshot(root), before, 'the disconnected verify recorded something');
    } finally {
      server.kill();
    }
  });

  test('over HTTP, a session that ends (DELETE) cancels its calls in flight: the test stops, nothing is recorded', {
    timeout: 300_000,
    skip: process.platform !== 'linux' && 'reads /proc',
  }, async (t) => {
    const { root, marker, before } = slowVerifyCourse();
    const { url, server } = await httpServer(t, root, UNSANDBOXED);
    try {
      const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: httpFetch });
      const client = new Client({ name: 'codelabgen-test', version: '1' });
      await client.connect(transport);
      const pending = client
        .callTool({ name: 'verify', arguments: { id: '1.1', update_state: true } }, undefined, { timeout: 60_000 })
        .then(
          () => 'answered',
          () => 'rejected',
        );
      await until(() => running(marker), 60_000, 'the lesson test started');
      await transport.terminateSession();
      await until(() => !running(marker), 10_000, 'the lesson test stopped after the session ended');
      await client.close();
      await pending;
      assert.deepEqual(snapshot(root), before, "the ended session's verify recorded something");
    } finally {
      server.kill('SIGTERM');
    }
  });

  test('leaving a gate asks the user by elicitation when the client can; the event records that the approval came that way', {
    timeout: 300_000,
  }, async (t) => {
    const root = preparedCourse('gate_sources');
    const answers: ElicitResult[] = [
      { action: 'decline' },
      { action: 'accept', content: { approve: false } },
      { action: 'accept', content: { approve: true } },
    ];
    const asked: string[] = [];
    const client = await elicitingClient(root, (message) => {
      asked.push(message);
      return answers.shift()!;
    });
    t.after(() => client.close());
    try {
      const before = snapshot(root);
      for (const reason of ['declined', 'answered no']) {
        const refusedCall = await call(client, 'state_phase', { next: 'topics' });
        assert.equal(refusedCall.isError, true);
        assert.match(
          refusedCall.content.at(-1)!.text,
          new RegExp(
            `^error: state_phase: the user did not approve \\(${reason}\\): Leave gate_sources and move to ` +
              `topics\\? .*\\(\\.codelabgen/sources\\.jsonl\\); nothing changed$`,
          ),
        );
        assert.deepEqual(snapshot(root), before);
      }
      assert.deepEqual((await ok(client, 'state_phase', { next: 'topics' })).to, 'topics');
      assert.equal(asked.length, 3);
      assert.match(
        asked[0]!,
        /^Leave gate_sources and move to topics\? This gate is yours to approve: the sources gathered/,
      );
      const event = readEvents(root).at(-1)!;
      assert.deepEqual([event.kind, event.approved, event.approval], ['phase.advance', true, 'elicitation']);
      // Not at a gate: nothing is asked.
      ARTIFACTS_BY_PHASE.topics!(root);
      await ok(client, 'state_phase', { next: 'curriculum' });
      assert.equal(asked.length, 3);
    } finally {
      await client.close();
    }
    // The flag (the CLI's --approved, or approved: true) is recorded as such.
    const flagged = preparedCourse('gate_sources');
    await cliOkAsync(flagged, 'state', 'phase', 'topics', '--approved');
    assert.equal(readEvents(flagged).at(-1)!.approval, 'command');

    // Lifting a user block and dropping lessons are asked too.
    const lessons = preparedCourse('lessons');
    write(lessons, '.codelabgen/curriculum.yaml', CURRICULUM.replace(/  - id: "2"[\s\S]*$/, ''));
    const questions: string[] = [];
    const asking = await elicitingClient(lessons, (message) => {
      questions.push(message);
      return { action: 'accept', content: { approve: true } };
    });
    t.after(() => asking.close());
    try {
      await ok(asking, 'state_block', { id: '1.1', reason: 'wait for the user' }); // (blocking asks nothing)
      await ok(asking, 'state_unblock', { id: '1.1' });
      assert.equal(questions.at(-1), 'Unblock lesson 1.1? It was blocked: wait for the user');
      assert.deepEqual(
        [readEvents(lessons).at(-1)!.kind, readEvents(lessons).at(-1)!.approval],
        ['lesson.unblock', 'elicitation'],
      );
      assert.deepEqual((await ok(asking, 'register', { allow_drop: true })).removed, ['2.1']);
      assert.match(questions.at(-1)!, /^Drop the lessons that are no longer in the curriculum/);
      assert.deepEqual(
        [readEvents(lessons).at(-1)!.kind, readEvents(lessons).at(-1)!.approval],
        ['lessons.register', 'elicitation'],
      );
      assert.equal(questions.length, 2);
    } finally {
      await asking.close();
    }
  });

  test('over Streamable HTTP: several sessions at once lose no event; Host and Origin are checked; a bearer token when set', {
    timeout: 300_000,
  }, async (t) => {
    const root = preparedCourse('init');
    const { url, server, exited } = await httpServer(t, root);
    try {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const [a, b] = await Promise.all([httpClient(url), httpClient(url)]);
      const before = readState(root).last_seq as number;
      await Promise.all(
        [a, b].flatMap((client, which) =>
          Array.from({ length: 5 }, (_, index) =>
            ok(client, 'state_log', { kind: `fact-${which}`, data: { n: String(index) } }),
          ),
        ),
      );
      assert.equal(readState(root).last_seq, before + 10);
      assert.deepEqual(
        readEvents(root)
          .filter((event) => (event.seq as number) > before)
          .map((event) => event.seq),
        Array.from({ length: 10 }, (_, index) => before + index + 1),
      );
      await a.close();
      assert.equal((await ok(b, 'state_next')).phase, 'init', 'one session ending leaves the others');
      await b.close();
      // DNS-rebinding protection: a page of another site cannot reach the server through the browser.
      const post = (headers: Record<string, string>) => postInitialize(Number(new URL(url).port), headers);
      assert.equal(await post({ host: 'evil.example' }), 403);
      assert.equal(await post({ host: `evil.example:${new URL(url).port}` }), 403);
      assert.equal(await post({ origin: 'http://evil.example' }), 403);
      assert.equal(await post({ origin: 'http://localhost:3000' }), 200);
    } finally {
      server.kill('SIGTERM');
    }
    assert.equal(await exited, 143, 'SIGTERM stops it as it stops every command');

    const guarded = await httpServer(t, root, { CODELABGEN_MCP_TOKEN: 'sesame-123' });
    try {
      await assert.rejects(httpClient(guarded.url), /401|Unauthorized/);
      await assert.rejects(httpClient(guarded.url, { authorization: 'Bearer sesame-124' }), /401|Unauthorized/);
      const client = await httpClient(guarded.url, { authorization: 'Bearer sesame-123' });
      assert.equal((await ok(client, 'state_next')).phase, 'init');
      await client.close();
    } finally {
      guarded.server.kill('SIGTERM');
    }
  });

  test('resources follow the log: subscribers hear of every commit (CLI ones too), registering lessons changes the ' +
    'list; completions, lesson templates and warnings as log messages', {
    timeout: 300_000,
  }, async (t) => {
    const root = preparedCourse('scaffold');
    const client = await connect(root, t);
    const updated: string[] = [];
    let listChanged = 0;
    const messages: Array<{ level: string; data: unknown }> = [];
    const waiters: Array<() => void> = [];
    const wake = () => {
      for (const waiter of waiters.splice(0)) waiter();
    };
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
      wake();
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      listChanged += 1;
      wake();
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params);
      wake();
    });
    const until = async (condition: () => boolean, what: string) => {
      const deadline = Date.now() + 30_000; // a hang guard: each wait ends when its notification comes
      while (!condition()) {
        if (Date.now() > deadline) assert.fail(`${what}: not within 30 s`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
    };
    try {
      await client.subscribeResource({ uri: 'codelabgen://state' });
      await client.subscribeResource({ uri: 'codelabgen://next' });
      // A CLI writer: the server hears of it from the log.
      await cliOkAsync(root, 'register');
      await until(
        () => updated.includes('codelabgen://state') && updated.includes('codelabgen://next') && listChanged > 0,
        'updates after a CLI register',
      );
      const lessons = (await client.listResources()).resources
        .map((resource) => resource.uri)
        .filter((uri) => uri.startsWith('codelabgen://lesson/'));
      assert.deepEqual(lessons, ['codelabgen://lesson/1.1', 'codelabgen://lesson/1.2', 'codelabgen://lesson/2.1']);
      await client.unsubscribeResource({ uri: 'codelabgen://next' });
      updated.length = 0;
      await ok(client, 'state_log', { kind: 'fact' });
      await until(() => updated.includes('codelabgen://state'), 'an update after an MCP commit');
      assert.equal(updated.includes('codelabgen://next'), false, 'an unsubscribed resource was announced');

      // Completions and templates.
      const complete = async (ref: Record<string, string>, name: string, value: string) =>
        (await client.complete({ ref: ref as any, argument: { name, value } })).completion.values;
      assert.deepEqual(await complete({ type: 'ref/resource', uri: 'codelabgen://lesson/{id}' }, 'id', '1.'), [
        '1.1',
        '1.2',
      ]);
      assert.deepEqual(await complete({ type: 'ref/resource', uri: 'codelabgen://schema/{name}' }, 'name', 'wor'), [
        'worker-status',
      ]);
      assert.deepEqual(await complete({ type: 'ref/prompt', name: 'code-author' }, 'lesson', '2'), ['2.1']);
      assert.deepEqual(await complete({ type: 'ref/prompt', name: 'code-author' }, 'nothing', ''), []);
      const lesson = await client.readResource({ uri: 'codelabgen://lesson/1.2' });
      assert.equal(JSON.parse((lesson.contents[0] as { text: string }).text).stage, 'pending');
      await assert.rejects(client.readResource({ uri: 'codelabgen://lesson/9.9' }), /unknown lesson "9\.9"/);

      // Prompts: one per worker role, from the stage table, in tool terms; orchestrate links its resources.
      const prompts = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
      assert.deepEqual(prompts, ['orchestrate', ...ROLES]);
      const author = await client.getPrompt({ name: 'code-author', arguments: { lesson: '1.2' } });
      const brief = (author.messages[0]!.content as { text: string }).text;
      assert.match(brief, /^You are the code-author of lesson 1\.2 \("Writable streams"/);
      assert.match(brief, /Note: the lesson is at stage pending; a code-author works on lessons at spec\./);
      assert.match(brief, /"stage":"code"/);
      assert.match(brief, /"notes":"<one line>"\}\n```\nWhen you cannot finish, status is "failed"/);
      const writer = await client.getPrompt({ name: 'readalong-writer', arguments: { lesson: '1.1' } });
      assert.deepEqual(
        writer.messages.slice(1).map((message) => (message.content as { uri: string }).uri),
        [
          'codelabgen://conventions/readalong',
          'codelabgen://conventions/diagrams',
          'codelabgen://schema/worker-status',
        ],
      );
      await assert.rejects(
        client.getPrompt({ name: 'code-author', arguments: { lesson: '7.7' } }),
        /unknown lesson "7\.7"/,
      );
      const orchestrate = await client.getPrompt({ name: 'orchestrate' });
      assert.ok(
        orchestrate.messages.some((message) => (message.content as { uri?: string }).uri === 'codelabgen://next'),
      );

      // A notice (an event appended by a crashed writer, replayed by the next call) reaches the client as a warning.
      await client.setLoggingLevel('warning');
      const state = readState(root) as { last_seq: number };
      appendFileSync(
        path.join(root, '.codelabgen', 'events.jsonl'),
        `${JSON.stringify({ seq: state.last_seq + 1, ts: new Date().toISOString(), kind: 'log', fact: 'crashed', lesson: null, data: {} })}\n`,
      );
      const logged = await call(client, 'state_log', { kind: 'after' });
      assert.equal(logged.isError, false);
      await until(() => messages.length > 0, 'a warning as a log message');
      assert.equal(messages[0]!.level, 'warning');
      assert.match(String(messages[0]!.data), /replay|recover|event/i);
    } finally {
      await client.close();
    }
  });

  test('malformed input gets JSON-RPC errors and the server keeps serving; when the client goes away it finishes the change in flight and exits 0', {
    timeout: 300_000,
  }, async (t) => {
    const root = preparedCourse('init');
    const { server, sendText: send, answerWhere: answer, exited } = await rawServer(t, root);
    try {
      send('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"');
      assert.equal((await answer((line) => line.error?.code === -32700)).id, null);
      send('{"id": 3, "hello": "world"}');
      assert.equal((await answer((line) => line.id === 3)).error.code, -32600);
      send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'no/such/method' }));
      assert.equal((await answer((line) => line.id === 4)).error.code, -32601);
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'no_such_tool', arguments: {} },
        }),
      );
      const unknownTool = await answer((line) => line.id === 5);
      assert.ok(unknownTool.error !== undefined || unknownTool.result.isError === true, 'an unknown tool is an error');
      send(
        JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'state_next', arguments: {} } }),
      );
      const next = await answer((line) => line.id === 6);
      assert.equal(next.result.isError, false);
      assert.equal(JSON.parse(next.result.content[0].text).phase, 'init');

      // A change sent just before the client goes away is committed; then the server exits 0 and leaves no lock.
      const before = readState(root).last_seq as number;
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'state_log', arguments: { kind: 'last-words' } },
        }),
      );
      server.stdin.end();
      assert.equal(await exited, 0);
      assert.equal(readState(root).last_seq, before + 1);
      assert.equal(readEvents(root).at(-1)?.fact, 'last-words');
      assert.equal(existsSync(path.join(root, '.codelabgen', 'lock')), false);
    } finally {
      server.kill(); // a failed assertion must not leave the server holding the test process open
    }
  });

  // Tests of what a server does once it runs, on one server and course, one after another.
  describe('on one server', { concurrency: false }, () => {
    let root = '';
    let served: Client | undefined;
    before(async () => {
      root = preparedCourse('lessons');
      served = await connect(root);
    });
    after(() => served?.close());

    test("the tools are the command table's agent commands, with schemas and hints from it", {
      timeout: 300_000,
    }, async () => {
      const client = served!;
      const { tools } = await client.listTools();
      const expected = COMMANDS.filter((spec) => !(spec.name in NOT_TOOLS)).map((spec) => toolName(spec.name));
      assert.deepEqual(
        tools.map((tool) => tool.name),
        expected,
      );
      for (const spec of COMMANDS)
        assert.ok(
          spec.name in NOT_TOOLS || expected.includes(toolName(spec.name)),
          `${spec.name}: a tool, or a reason in NOT_TOOLS`,
        );
      for (const name of Object.keys(NOT_TOOLS))
        assert.ok(
          COMMANDS.some((spec) => spec.name === name),
          `NOT_TOOLS names "${name}", not in the table`,
        );
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const set = byName.get('state_set')!;
      assert.deepEqual(set.inputSchema.required, ['id', 'stage']);
      assert.deepEqual((set.inputSchema.properties as any).stage.enum, [
        'pending',
        'spec',
        'code',
        'verified',
        'readalong',
        'notes',
        'reviewed',
        'done',
      ]);
      assert.equal(set.annotations?.readOnlyHint, false);
      assert.equal(set.annotations?.destructiveHint, true);
      assert.equal(byName.get('state_next')!.annotations?.readOnlyHint, true);
      assert.equal(byName.get('state_log')!.annotations?.destructiveHint, false);
      assert.ok(byName.get('verify')!.inputSchema.properties?.update_state, 'options in snake_case');
      assert.match(byName.get('state_set')!.description ?? '', /^Move a lesson one stage forward/);
      for (const spec of COMMANDS.filter((command) => command.changesState))
        if (byName.has(toolName(spec.name)))
          assert.equal(byName.get(toolName(spec.name))!.annotations?.readOnlyHint, false, spec.name);
    });

    test('a CLI writer and an MCP client on one course at once lose no event', { timeout: 300_000 }, async () => {
      const client = served!;
      const before = readState(root).last_seq as number;
      const viaCli = Array.from(
        { length: 6 },
        (_, index) => cliAsync(['state', 'log', 'cli-fact', '--data', `n=${index}`], { cwd: root }).done,
      );
      const viaMcp = Array.from({ length: 20 }, (_, index) =>
        ok(client, 'state_log', { kind: 'mcp-fact', data: { n: String(index) } }),
      );
      const [cliResults, mcpResults] = await Promise.all([Promise.all(viaCli), Promise.all(viaMcp)]);
      for (const result of cliResults) assert.equal(result.code, 0, result.stderr);
      const events = readEvents(root).filter((event) => (event.seq as number) > before);
      assert.equal(events.length, 26);
      assert.deepEqual(
        events.map((event) => event.seq),
        Array.from({ length: 26 }, (_, index) => before + index + 1),
      );
      assert.deepEqual(new Set(mcpResults.map((result) => result.seq)).size, 20);
      assert.equal(events.filter((event) => event.fact === 'mcp-fact').length, 20);
      assert.equal(events.filter((event) => event.fact === 'cli-fact').length, 6);
      assert.equal(readState(root).last_seq, before + 26);
    });

    test('arguments are checked strictly, as the CLI checks options: unknown ones are refused by name and nothing runs', {
      timeout: 300_000,
    }, async () => {
      const client = served!;
      const other = preparedCourse('lessons');
      // Issue 24.11: a misspelled note and a dry run were dropped and the change committed (then on the server's course).
      await refusedArguments(
        client,
        [root, other],
        'state_set',
        { id: '1.1', stage: 'spec', course: other, dry_run: true, nte: 'x' },
        /^error: state_set: unknown arguments "dry_run", "nte" \(state_set takes id, stage, note, reopen, course\)$/,
      );
      await refusedArguments(
        client,
        [root],
        'state_next',
        { verbose: true },
        /^error: state_next: unknown argument "verbose" \(state_next takes course\)$/,
      );
      await refusedArguments(
        client,
        [root],
        'schema_list',
        { course: root },
        /^error: schema_list: unknown argument "course" \(schema_list takes no arguments\)$/,
      );
      await refusedArguments(
        client,
        [root],
        'state_set',
        { id: '1.1', stage: 'finished' },
        /^error: state_set: stage "finished": expected one of pending, spec, code, verified, readalong, notes, reviewed, done$/,
      );
      await refusedArguments(client, [root], 'state_set', { stage: 'spec' }, /^error: state_set: id is required$/);
      await refusedArguments(
        client,
        [root],
        'state_phase',
        { next: 'init' },
        /^error: state_phase: next "init": expected one of recon, /,
      );
      await refusedArguments(
        client,
        [root],
        'state_task_start',
        { phase: 'lessons', role: 'x' },
        /^error: state_task_start: phase "lessons": expected one of recon, sources, topics, curriculum, scaffold, assembly$/,
      );
      await refusedArguments(
        client,
        [root],
        'schema_show',
        { name: 'nope' },
        /^error: schema_show: name "nope": expected one of .*worker-status/,
      );
      await refusedArguments(client, [root], 'state_show', { all: true }, /^error: state_show: unknown argument "all"/);
      // A worker's status that fails its schema is refused with the CLI's reason, not "Invalid input at status".
      const status = await call(client, 'status_check', { status: { lesson: '1.2', status: 'maybe' } });
      assert.equal(status.isError, true);
      const reason = status.content.at(-1)!.text;
      assert.doesNotMatch(reason, /Invalid input/);
      assert.equal(
        `${reason}\n`,
        (await cliRun(['status', 'check', '-'], root, JSON.stringify({ lesson: '1.2', status: 'maybe' }))).stderr,
      );

      // Lesson ids as text or as a number.
      writeStageArtifact(root, '1.1', 'spec');
      assert.equal((await ok(client, 'state_set', { id: 1.1, stage: 'spec' })).stage, 'spec');
      assert.equal(readEvents(root).at(-1)?.command, 'codelabgen state set 1.1 spec --json');
      assert.equal((await ok(client, 'state_task_start', { lesson: '1.2' })).task.lesson, '1.2');
      // 1.10 as a number is 1.1: refused when both lessons exist, the one lesson it can be otherwise.
      const tens = preparedCourse('scaffold');
      write(
        tens,
        '.codelabgen/curriculum.yaml',
        'title: Streams\nmodules:\n  - id: "1"\n    slug: basics\n    title: Basics\n    lessons:\n      - { ' +
          'id: "1.1", slug: one, title: One }\n      - { id: "1.10", slug: ten, title: Ten }\n  - id: "2"\n    ' +
          'slug: more\n    title: More\n    lessons:\n      - { id: "2.10", slug: twenty, title: Twenty }\n',
      );
      await ok(client, 'register', { course: tens });
      await refusedArguments(
        client,
        [tens],
        'state_log',
        { course: tens, kind: 'fact', lesson: 1.1 },
        /^error: state_log: lesson 1\.1 as a number is ambiguous: lessons 1\.1 and 1\.10; give the id as text, e\.g\. "1\.10"$/,
      );
      assert.equal((await ok(client, 'state_task_start', { course: tens, lesson: 2.1 })).task.lesson, '2.10');

      // What hosts see: strict schemas, enums of the valid values, the lesson-or-phase rule.
      const { tools } = await client.listTools();
      for (const tool of tools) assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name}: not strict`);
      const byName = new Map(tools.map((tool) => [tool.name, tool.inputSchema as any]));
      assert.deepEqual(byName.get('state_task_start').oneOf, [
        { required: ['lesson'], not: { required: ['phase'] } },
        { required: ['phase', 'role'], not: { required: ['lesson'] } },
      ]);
      assert.ok(byName.get('schema_show').properties.name.enum.includes('worker-status'));
      assert.equal(byName.get('state_phase').properties.next.enum.includes('init'), false);
      assert.deepEqual(Object.keys(byName.get('state_show').properties), ['course']);
      assert.equal(byName.get('status_check').properties.status.anyOf[0].title, 'worker-status');
    });

    test('state_log records data keys exactly or refuses them (issue 24.12)', { timeout: 300_000 }, async () => {
      const client = served!;
      await refusedArguments(
        client,
        [root],
        'state_log',
        { kind: 'fact', data: { 'a=b': 'c' } },
        /^error: state_log: data key "a=b": use letters, digits/,
      );
      const proto = await call(client, 'state_log', { kind: 'fact', data: JSON.parse('{"__proto__": "x"}') });
      assert.equal(proto.isError, true, 'a __proto__ key was acknowledged');
      assert.match(proto.content.at(-1)!.text, /^error: `data` key "__proto__" is reserved/);
      await ok(client, 'state_log', { kind: 'fact', data: { 'a.b': 'c=d', n: '' } });
      assert.deepEqual(readEvents(root).at(-1)?.data, { 'a.b': 'c=d', n: '' });
      assert.equal(readEvents(root).filter((event) => event.fact === 'fact').length, 1);
    });
  });
});
