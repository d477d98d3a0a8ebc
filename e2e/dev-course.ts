// `codelabgen site dev` on a copy of the demo course, for the browser specs (e2e/dev.spec.ts), and
// the untimed first save that warms it up.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { courseDir } from './course.ts';
import { freePort, stop, waitForServer } from './dev-server.ts';
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
    // trace: lines in the output a failure prints: which changes were reported and synced.
    env: { ...process.env, NO_COLOR: '1', CODELABGEN_DEV_TRACE: '1' },
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
