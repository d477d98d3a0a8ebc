// Helpers for browser tests that run `codelabgen site dev` themselves: a dev server on a copy of
// the demo course, a free port, waiting for the server's first answer, and stopping it.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { courseDir } from './course.ts';
import { cliPath } from './paths.ts';

export interface DevServer {
  course: string;
  port: number;
  output: () => string;
  close: () => Promise<void>;
}

/** `site dev` on a fresh copy of the demo course; answers once the home page does. */
export async function startDev(): Promise<DevServer> {
  const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-e2e-dev-'));
  const course = path.join(work, 'course');
  cpSync(courseDir(), course, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, [cliPath(), 'site', 'dev', '--course', course, '--port', String(port)], {
    cwd: work,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitForServer(`http://localhost:${port}/`, 180_000, child, () => output);
  return {
    course,
    port,
    output: () => output,
    close: async () => {
      expect(child.exitCode, `the dev server kept running:\n${output}`).toBeNull();
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await stop(child);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** One untimed save first: the server's first sync after start-up also warms Vite and the browser. */
export async function warmUp(page: Page, notes: string): Promise<void> {
  appendFileSync(notes, '\n\nWarm-up save.\n');
  await expect(page.locator('body')).toContainText('Warm-up save', { timeout: 60_000 });
}

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
