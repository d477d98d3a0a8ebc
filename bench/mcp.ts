// The MCP server against the CLI, paired in one run: round trips of the `state_next` and `state_log`
// tool calls (one server, one SDK client over stdio) against `state next` and `state log` processes,
// interleaved round by round; then C parallel MCP clients (a server each) doing `state_log`, with
// throughput, lost updates (acknowledged ids missing from the log; must be 0) and the CPU the servers
// and the clients spent per change; then how soon a client subscribed to codelabgen://state hears of a
// commit made by another process (`state log`), median of 20.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ContentionRow } from './contention.ts';
import { buildStateCourse, CLI } from './state-course.ts';
import { ratio, round, since, summarize, type Summary } from './stats.ts';

export interface McpLatencyRow {
  tool: string;
  cli_command: string;
  mcp: Summary;
  cli: Summary;
  /** MCP median / CLI median (target <= 0.2). */
  median_vs_cli: number | null;
}

/** A contention row (bench/contention.ts) of MCP clients instead of CLI writers, with CPU per change. */
export interface McpClientsRow extends Omit<ContentionRow, 'writers'> {
  clients: number;
  /** CPU (user + system) of the 8 server processes per change, from /proc (Linux; null elsewhere). */
  server_cpu_ms_per_change: number | null;
  /** CPU of this bench process (the 8 SDK clients) per change. */
  client_cpu_ms_per_change: number;
}

const ENV: Record<string, string> = {
  ...(process.env as Record<string, string>),
  NO_COLOR: '1',
  CODELABGEN_LOCK_TIMEOUT: '120',
};

async function connect(root: string): Promise<Client> {
  const client = new Client({ name: 'codelabgen-bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--course', root],
      env: ENV,
      stderr: 'ignore',
    }),
  );
  return client;
}

/** CPU ms (user + system) a process has used so far, from /proc/<pid>/stat; null without procfs. */
function processCpuMs(pid: number | null | undefined): number | null {
  if (pid === null || pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100 on Linux)
  } catch {
    return null;
  }
}

function serversCpuMs(clients: Client[]): number | null {
  let total = 0;
  for (const client of clients) {
    const ms = processCpuMs((client.transport as StdioClientTransport | undefined)?.pid);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}

async function timedCall(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ms: number; ok: boolean; text: string }> {
  const start = process.hrtime.bigint();
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text: string }>;
  };
  return { ms: since(start), ok: result.isError !== true, text: result.content[0]?.text ?? '' };
}

function timedCli(argv: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [CLI, ...argv], { env: ENV, encoding: 'utf8' });
  const ms = since(start);
  if (result.status !== 0) throw new Error(`codelabgen ${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

async function latency(root: string, rounds: number): Promise<McpLatencyRow[]> {
  const client = await connect(root);
  try {
    const pairs: Array<[string, Record<string, unknown>, string[]]> = [
      ['state_next', {}, ['state', 'next', '--course', root]],
      [
        'state_log',
        { kind: 'bench', data: { k: 'v' } },
        ['state', 'log', 'bench', '--data', 'k=v', '--json', '--course', root],
      ],
    ];
    const samples = pairs.map(() => ({ mcp: [] as number[], cli: [] as number[] }));
    for (let at = 0; at < rounds + 1; at += 1) {
      for (const [index, [tool, args, argv]] of pairs.entries()) {
        const call = await timedCall(client, tool, args);
        if (!call.ok) throw new Error(`${tool}: ${call.text}`);
        const cliMs = timedCli(argv);
        if (at > 0) {
          // round 0 warms the server, the page cache and the compile cache
          samples[index]!.mcp.push(call.ms);
          samples[index]!.cli.push(cliMs);
        }
      }
    }
    return pairs.map(([tool, , argv], index) => {
      const mcp = summarize(samples[index]!.mcp);
      const cli = summarize(samples[index]!.cli);
      return {
        tool,
        cli_command: argv.slice(0, 2).join(' '),
        mcp,
        cli,
        median_vs_cli: ratio(mcp.median_ms, cli.median_ms),
      };
    });
  } finally {
    await client.close();
  }
}

async function parallelClients(root: string, clients: number, perClient: number): Promise<McpClientsRow> {
  const connected = await Promise.all(Array.from({ length: clients }, () => connect(root)));
  try {
    const samples: number[] = [];
    const acked = new Set<string>();
    let refused = 0;
    const serverCpu = serversCpuMs(connected);
    const clientCpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await Promise.all(
      connected.map(async (client, c) => {
        for (let n = 0; n < perClient; n += 1) {
          const id = `c${c}n${n}`;
          const call = await timedCall(client, 'state_log', { kind: 'mcp-contention', data: { id } });
          samples.push(call.ms);
          if (call.ok) acked.add(id);
          else refused += 1;
        }
      }),
    );
    const wall = since(start);
    const serverCpuAfter = serversCpuMs(connected);
    const clientCpuUsed = process.cpuUsage(clientCpu);
    const changes = clients * perClient;
    const logged = new Set(
      readFileSync(path.join(root, '.codelabgen', 'events.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { data?: { id?: string } }).data?.id),
    );
    const summary = summarize(samples);
    return {
      clients,
      changes,
      wall_ms: round(wall, 0),
      changes_per_s: round(changes / (wall / 1000), 1),
      p50_ms: summary.median_ms,
      p99_ms: summary.p99_ms,
      refused,
      lost_updates: [...acked].filter((id) => !logged.has(id)).length,
      server_cpu_ms_per_change:
        serverCpu === null || serverCpuAfter === null ? null : round((serverCpuAfter - serverCpu) / changes, 2),
      client_cpu_ms_per_change: round((clientCpuUsed.user + clientCpuUsed.system) / 1000 / changes, 2),
    };
  } finally {
    await Promise.all(connected.map((client) => client.close()));
  }
}

/** How long after another process's commit a client subscribed to codelabgen://state hears of it. */
export interface McpUpdateRow {
  rounds: number;
  /** From the `state log` process's exit (its commit is on disk) to `notifications/resources/updated`. */
  after_commit: Summary;
}

async function resourceUpdates(root: string, rounds: number): Promise<McpUpdateRow> {
  const client = await connect(root);
  try {
    let heard: (() => void) | null = null;
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => heard?.());
    await client.subscribeResource({ uri: 'codelabgen://state' });
    const samples: number[] = [];
    for (let at = 0; at < rounds + 1; at += 1) {
      const notified = new Promise<bigint>((resolve) => (heard = () => resolve(process.hrtime.bigint())));
      timedCli(['state', 'log', 'bench-update', '--data', `n=${at}`, '--course', root]);
      const committed = process.hrtime.bigint();
      const heardAt = await Promise.race([
        notified,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      if (heardAt === null) throw new Error(`round ${at}: no resources/updated within 5 s of the commit`);
      if (at > 0) samples.push(Math.max(0, Number(heardAt - committed) / 1e6)); // round 0 warms the server
    }
    return { rounds, after_commit: summarize(samples) };
  } finally {
    await client.close();
  }
}

export async function benchMcp(quick: boolean): Promise<{
  rounds: number;
  latency: McpLatencyRow[];
  clients: McpClientsRow;
  updates: McpUpdateRow;
  load_average: number[];
}> {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-bench-mcp-'));
  try {
    const root = path.join(dir, 'course');
    buildStateCourse(root, { lessons: 10 });
    const rounds = quick ? 2 : 30;
    const rows = await latency(root, rounds);
    const clients = await parallelClients(root, 8, Number(process.env.BENCH_CHANGES ?? (quick ? 5 : 50)));
    const updates = await resourceUpdates(root, quick ? 3 : 20);
    return { rounds, latency: rows, clients, updates, load_average: loadavg().map((value) => round(value, 2)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
