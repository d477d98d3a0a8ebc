// One MCP server (over stdio, as bench/mcp.ts starts it) doing N `state_next` and N `state_log` calls,
// with the server's CPU per call from /proc; with --cpu-prof DIR the server writes a V8 CPU profile
// there (open it in Chrome's DevTools, or summarize it with `node bench/cpu-profile-top.ts FILE`).
// With --clients C: C servers (a client each) doing N `state_log` calls at once, as bench/mcp.ts's
// contention part does, with their CPU per change (a profile per server with --cpu-prof).
// Usage: node bench/mcp-profile.ts [N] [--only state_next|state_log] [--clients C] [--cpu-prof DIR]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildStateCourse, CLI } from './state-course.ts';
import { round, since, summarize } from './stats.ts';

const argv = process.argv.slice(2);
const profAt = argv.indexOf('--cpu-prof');
const profDir = profAt === -1 ? null : path.resolve(argv[profAt + 1] ?? '.');
const clientsAt = argv.indexOf('--clients');
const clients = clientsAt === -1 ? 0 : Number(argv[clientsAt + 1]);
const onlyAt = argv.indexOf('--only');
const only = onlyAt === -1 ? null : argv[onlyAt + 1];
const calls = Number(
  argv.find((arg, index) => /^\d+$/.test(arg) && argv[index - 1] !== '--cpu-prof' && argv[index - 1] !== '--clients') ??
    200,
);

/** CPU ms (user + system, or one of them) a process has used so far, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMs(pid: number | null | undefined, part: 'both' | 'user' | 'system' = 'both'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return ((part === 'user' ? user : part === 'system' ? system : user + system) * 1000) / 100;
}

const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-mcp-profile-'));
try {
  const root = path.join(dir, 'course');
  buildStateCourse(root, { lessons: 10 });
  const env = { ...(process.env as Record<string, string>), NO_COLOR: '1', CODELABGEN_LOCK_TIMEOUT: '120' };
  const start = async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...(profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []), CLI, 'mcp', '--course', root],
      env,
      stderr: 'inherit',
    });
    const client = new Client({ name: 'codelabgen-profile', version: '1' });
    await client.connect(transport);
    return { transport, client };
  };
  const out: Record<string, unknown> = { load_average_at_start: loadavg().map((value) => round(value, 2)) };
  if (clients > 0) {
    const servers = await Promise.all(Array.from({ length: clients }, start));
    await Promise.all(
      servers.map(({ client }) => client.callTool({ name: 'state_log', arguments: { kind: 'warm-up' } })),
    );
    const before = servers.reduce((sum, { transport }) => sum + cpuMs(transport.pid), 0);
    const systemBefore = servers.reduce((sum, { transport }) => sum + cpuMs(transport.pid, 'system'), 0);
    const began = process.hrtime.bigint();
    await Promise.all(
      servers.map(async ({ client }, c) => {
        for (let n = 0; n < calls; n += 1) {
          const result = await client.callTool({
            name: 'state_log',
            arguments: { kind: 'contention', data: { id: `c${c}n${n}` } },
          });
          if (result.isError) throw new Error(JSON.stringify(result.content));
        }
      }),
    );
    const wall = since(began);
    const cpu = servers.reduce((sum, { transport }) => sum + cpuMs(transport.pid), 0) - before;
    const system = servers.reduce((sum, { transport }) => sum + cpuMs(transport.pid, 'system'), 0) - systemBefore;
    out.state_log = {
      clients,
      changes: clients * calls,
      changes_per_s: round((clients * calls) / (wall / 1000)),
      server_cpu_ms_per_change: round(cpu / (clients * calls), 2),
      of_which_system_ms: round(system / (clients * calls), 2),
    };
    await Promise.all(servers.map(({ client }) => client.close()));
  } else {
    const { transport, client } = await start();
    for (const [tool, args] of (
      [
        ['state_next', {}],
        ['state_log', { kind: 'bench', data: { k: 'v' } }],
      ] as const
    ).filter(([name]) => only === null || name === only)) {
      for (let n = 0; n < 5; n += 1) await client.callTool({ name: tool, arguments: args }); // warm-up
      const samples: number[] = [];
      const before = cpuMs(transport.pid);
      const systemBefore = cpuMs(transport.pid, 'system');
      for (let n = 0; n < calls; n += 1) {
        const start = process.hrtime.bigint();
        const result = await client.callTool({ name: tool, arguments: args });
        samples.push(since(start));
        if (result.isError) throw new Error(JSON.stringify(result.content));
      }
      out[tool] = {
        calls,
        median_ms: summarize(samples).median_ms,
        server_cpu_ms_per_call: round((cpuMs(transport.pid) - before) / calls, 2),
        of_which_system_ms: round((cpuMs(transport.pid, 'system') - systemBefore) / calls, 2),
      };
    }
    await client.close();
  }
  out.load_average_at_end = loadavg().map((value) => round(value, 2));
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
