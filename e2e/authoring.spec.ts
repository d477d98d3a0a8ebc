// README "Write a course by hand", run as written in an empty temp folder: npm install (of this
// checkout, in place of the GitHub URL), `init my-course --example`, `cd my-course && site dev`;
// the sample lesson's page shows its title, its stage and the code its readalong references.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { REPO } from './paths.ts';
import { freePort, waitForServer } from './dev-server.ts';

test('write a course by hand: three commands from an empty folder to a lesson page in site dev', async ({ page }) => {
  test.setTimeout(240_000);
  const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-e2e-authoring-'));
  const env = { ...process.env, NO_COLOR: '1', CODELABGEN_COURSE: undefined };
  const run = (command: string, args: string[], cwd: string) => {
    const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
    expect(result.status, `${command} ${args.join(' ')}:\n${result.stdout}${result.stderr}`).toBe(0);
    return result.stdout;
  };
  let child: ChildProcess | undefined;
  try {
    run('npm', ['install', '--save-dev', '--offline', '--no-audit', '--no-fund', REPO], work);
    expect(
      run('npx', ['--offline', 'codelabgen', 'init', 'my-course', '--title', 'My course', '--example'], work),
    ).toContain('preview: cd my-course && npx codelabgen site dev');
    const port = await freePort();
    child = spawn('npx', ['--offline', 'codelabgen', 'site', 'dev', '--port', String(port)], {
      cwd: path.join(work, 'my-course'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const url = `http://localhost:${port}/lessons/1.1-a-first-lesson/`;
    await waitForServer(url, 180_000, child, () => output);

    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('1.1 A first lesson');
    await expect(page.getByText(/\bpending\b/).first()).toBeVisible();
    await expect(
      page.locator('pre').filter({ hasText: "throw new RangeError('greet: name must not be empty');" }).first(),
    ).toBeVisible();
  } finally {
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child?.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(work, { recursive: true, force: true });
  }
});
