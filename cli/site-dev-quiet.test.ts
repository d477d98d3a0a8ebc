// `site dev` of a healthy course from this repository (init --example): the lesson page, its
// stylesheet and scripts answer 200, and the server logs no WARN or ERROR line on any page view
// (issue 36: an empty glossary warned on every page; cli/package.test.ts checks the same for an
// installed package); and no file of the course or of the project codelabgen is installed in is
// served by /@fs (Vite's file access).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort, stop, waitForServer } from '../e2e/dev-server.ts';
import { fetchPageAndAssets, noisyLines } from '../e2e/quiet-dev.ts';
import { CLI, cli, copyOfCourse, REPO_ROOT } from './testing.ts';

test('site dev of a healthy course logs no WARN or ERROR and serves every asset', { timeout: 240_000 }, async () => {
  const root = copyOfCourse('quiet-dev', (dir) => {
    const made = cli(['init', path.basename(dir), '--title', 'Quiet', '--example'], { cwd: path.dirname(dir) });
    assert.equal(made.code, 0, made.stderr);
  });
  const lesson = readdirSync(path.join(root, '1-first-steps'))[0]!;
  const port = await freePort();
  // Astro's dev server asks the package manager for its registry and the registry for a newer Astro
  // (once per 12 days of its preferences, off CI): package managers on PATH that record being run, a
  // fresh preferences folder, no CI.
  const user = path.join(path.dirname(root), 'quiet-user');
  const ran = path.join(user, 'package-manager-ran');
  mkdirSync(path.join(user, 'bin'), { recursive: true });
  for (const manager of ['npm', 'pnpm', 'yarn', 'bun']) {
    writeFileSync(path.join(user, 'bin', manager), `#!/bin/sh\necho "${manager} $*" >> '${ran}'\n`);
    chmodSync(path.join(user, 'bin', manager), 0o755);
  }
  const server = spawn(process.execPath, [CLI, 'site', 'dev', '--port', String(port)], {
    cwd: root,
    env: {
      ...process.env,
      NO_COLOR: '1',
      CODELABGEN_COURSE: undefined,
      CODELABGEN_CHROMIUM: 'none',
      PATH: `${path.join(user, 'bin')}${path.delimiter}${process.env.PATH}`,
      XDG_CONFIG_HOME: path.join(user, 'config'),
      CI: undefined,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  server.stdout.on('data', (d: Buffer) => (log += d));
  server.stderr.on('data', (d: Buffer) => (log += d));
  try {
    const base = `http://localhost:${port}`;
    await waitForServer(`${base}/`, 180_000, server, () => log);
    for (const page of ['/', `/lessons/${lesson}/`, `/lessons/${lesson}/`]) await fetchPageAndAssets(`${base}${page}`);
    assert.deepEqual(noisyLines(log), [], log);
    // No connection of its own: no update check (a package manager run, then the registry).
    assert.ok(!existsSync(ran), `site dev ran a package manager: ${existsSync(ran) ? readFileSync(ran, 'utf8') : ''}`);
    // The server is no file server: a course file, its state and the installed project stay out of
    // reach of any client (with --host, the network), though every page above had its assets.
    writeFileSync(path.join(root, 'secrets.yaml'), 'token: hunter2\n');
    for (const file of [
      path.join(root, 'secrets.yaml'),
      path.join(root, '.codelabgen', 'events.jsonl'),
      path.join(root, '1-first-steps', lesson, 'docs', 'notes.md'),
      path.join(REPO_ROOT, 'package.json'),
    ]) {
      const answer = await fetch(`${base}/@fs${file}`);
      const body = await answer.text();
      assert.notEqual(answer.status, 200, `/@fs${file} answered 200`);
      assert.doesNotMatch(body, /hunter2|"kind":"course\.init"|"name": "codelabgen"/);
      // Nor does the refusal tell a client where things are: no allowed folder's path (Vite's own page lists them).
      assert.equal(answer.status, 403);
      for (const where of [REPO_ROOT, homedir(), tmpdir()])
        assert.ok(!body.includes(where), `the 403 page of /@fs${file} names ${where}:\n${body}`);
    }
  } finally {
    if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    await stop(server);
  }
});
