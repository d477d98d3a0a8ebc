// `codelabgen site dev` on a copy of the demo course: a lesson page loads, and an edit to its
// docs/notes.md shows on reload without restarting the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { courseDir, lessonDir, lessons } from './course.ts';
import { cliPath } from './paths.ts';

function freePort(): Promise<number> {
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
async function waitForServer(url: string, ms: number, child: ChildProcess, log: () => string): Promise<void> {
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
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
  await new Promise((r) => child.once('exit', r));
  clearTimeout(timer);
}

test('site dev: an edit to a lesson\'s notes shows on reload without a restart', async ({ page }) => {
  test.setTimeout(240_000);
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
  try {
    const lesson = lessons()[1] ?? lessons()[0]!;
    const url = `http://localhost:${port}/lessons/${lesson.id}-${lesson.slug}/`;
    await waitForServer(url, 180_000, child, () => output);
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${lesson.id} ${lesson.title}`);
    const marker = `Edited while the dev server runs ${Date.now()}`;
    await expect(page.getByText(marker)).toHaveCount(0);

    appendFileSync(path.join(lessonDir(lesson, course), 'docs', 'notes.md'), `\n\n${marker}.\n`);
    await expect(async () => {
      await page.reload();
      await expect(page.getByText(marker)).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 60_000, intervals: [500, 1000, 2000] });
    expect(child.exitCode, 'the dev server kept running').toBeNull();
  } finally {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await stop(child);
    rmSync(work, { recursive: true, force: true });
  }
});
