// Helpers for tests that run `codelabgen site dev` themselves (browser specs and Node tests): a
// free port, waiting for the server's first answer, and stopping it. No Playwright here.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200 or `ms` pass; the dev server's first start compiles the site. */
export async function waitForServer(url: string, ms: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`site dev exited ${child.exitCode}:\n${log()}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`site dev did not answer ${url} within ${ms / 1000} s:\n${log()}`);
}

/** Waits for the dev server's exit after SIGTERM; SIGKILLs its process group after 10 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
  await new Promise((r) => child.once('exit', r));
  clearTimeout(timer);
}
