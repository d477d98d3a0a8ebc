// The node install step (npm ci) is a lesson step like the tests: end to end through the built CLI,
// a lesson's own install scripts run only with `install_scripts: true`, never with the network the
// spec did not ask for (the host's loopback included), and under verify.max_write_mb.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { cliAsync, type CliResult } from '../../cli/testing.ts';
import type { Course } from '../course/course.ts';
import { courseWithLessons, registeredLesson } from './fixtures.ts';
import { MACHINE_PROBES } from './runtime.ts';
import { findBwrap, probeBwrap } from './sandbox.ts';

const bwrap = findBwrap(process.env, MACHINE_PROBES.isExecutable);
const usable = bwrap !== null && probeBwrap(bwrap).usable;
const needsBwrap = {
  timeout: 120_000,
  skip: usable ? false : 'bubblewrap is not usable here; install it (apt-get install bubblewrap) to run this test',
};
const MIB = 1024 * 1024;
const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A loopback server on the host that counts the connections it gets (the lesson must reach none). */
async function hostService(): Promise<{ port: number; connections: () => number; server: Server }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, connections: () => count, server };
}

/**
 * A node lesson with a lock file (no dependencies: npm ci needs no registry) whose postinstall
 * connects to the host's `port`, writes what it got into reached.txt, then writes three files of
 * 0.7 MiB and one of 3 MiB.
 */
function hostileLesson(port: number): Record<string, string> {
  const manifest = {
    name: 'hostile-lesson',
    version: '1.0.0',
    private: true,
    scripts: { test: 'node --test', postinstall: `node install.cjs ${port}` },
  };
  return {
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'package-lock.json': `${JSON.stringify(
      {
        name: 'hostile-lesson',
        version: '1.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: { '': { name: 'hostile-lesson', version: '1.0.0', hasInstallScript: true } },
      },
      null,
      2,
    )}\n`,
    'install.cjs': `const fs = require('node:fs');
const socket = require('node:net').connect(Number(process.argv[2]), '127.0.0.1');
const write = (reached) => {
  fs.writeFileSync('reached.txt', reached);
  for (const n of [1, 2, 3]) fs.writeFileSync('blob' + n + '.bin', Buffer.alloc(${0.7 * MIB}));
  try { fs.writeFileSync('big.bin', Buffer.alloc(${3 * MIB})); } catch (error) { fs.writeFileSync('big.txt', error.code); }
};
socket.on('connect', () => { socket.destroy(); write('connected'); });
socket.on('error', (error) => write(error.code));
`,
    'a.test.mjs': "import test from 'node:test';\ntest('passes', () => {});\n",
  };
}

async function course(sandbox: string, spec: string, port: number): Promise<{ made: Course; dir: string }> {
  const made = await courseWithLessons(
    [{ id: '1.1', files: hostileLesson(port), spec: `lesson: "1.1"\ntitle: T\ngoal: G\n${spec}` }],
    `verify:\n  sandbox: ${sandbox}\n  max_write_mb: 1\n`,
  );
  scratch.push(path.dirname(made.root));
  return { made, dir: path.join(made.root, registeredLesson('1.1').dir) };
}

const verify = (made: Course, env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  cliAsync(['verify', '1.1', '--json', '--course', made.root], { timeoutMs: 100_000, env }).done;

const largestFile = (dir: string) => Math.max(...readdirSync(dir).map((name) => statSync(path.join(dir, name)).size));

test(
  'install scripts opted in: the postinstall runs without the network (host loopback refused) and its writes past max_write_mb fail the run',
  needsBwrap,
  async () => {
    const host = await hostService();
    try {
      const { made, dir } = await course('required', 'install_scripts: true\n', host.port);
      const result = await verify(made);
      assert.equal(readFileSync(path.join(dir, 'reached.txt'), 'utf8'), 'ECONNREFUSED');
      assert.equal(host.connections(), 0, 'the lesson reached a service on the host loopback');
      assert.equal(result.code, 1, result.stderr);
      const run = JSON.parse(result.stdout) as Record<string, any>;
      assert.equal(run.passed, false);
      assert.equal(run.sandbox, 'bwrap');
      assert.match(run.cause, /^the tests wrote .* into .*, over verify\.max_write_mb \(1\)/);
      assert.equal(readFileSync(path.join(dir, 'big.txt'), 'utf8'), 'EFBIG');
      assert.ok(largestFile(dir) <= MIB, `a file over 1 MiB: ${largestFile(dir)} bytes`);
    } finally {
      host.server.close();
    }
  },
);

test(
  'install scripts are off unless the spec opts in: npm ci --ignore-scripts, the postinstall never runs',
  needsBwrap,
  async () => {
    const host = await hostService();
    try {
      const { made, dir } = await course('required', '', host.port);
      const result = await verify(made);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.equal(existsSync(path.join(dir, 'reached.txt')), false, 'the postinstall ran');
      assert.equal(host.connections(), 0);
      const run = JSON.parse(result.stdout) as Record<string, any>;
      assert.deepEqual(run.argv, ['npm', 'test']);
      assert.equal(run.passed, true);
    } finally {
      host.server.close();
    }
  },
);

test('without the sandbox the install step keeps the limits: no file past max_write_mb, the run fails over it', {
  timeout: 120_000,
}, async () => {
  const host = await hostService();
  try {
    // Unsandboxed by the machine's setting: a course's verify.sandbox: off runs as auto.
    const { made, dir } = await course('auto', 'install_scripts: true\n', host.port);
    const result = await verify(made, { CODELABGEN_SANDBOX: 'off' });
    assert.equal(result.code, 1, result.stderr);
    const run = JSON.parse(result.stdout) as Record<string, any>;
    assert.equal(run.sandbox, 'none');
    assert.match(run.cause, /over verify\.max_write_mb \(1\)/);
    assert.equal(readFileSync(path.join(dir, 'big.txt'), 'utf8'), 'EFBIG');
    assert.ok(largestFile(dir) <= MIB);
  } finally {
    host.server.close();
  }
});

test(
  'a lesson whose lock file needs a download has no network unless the spec asks: npm ci fails, and the cause says so',
  needsBwrap,
  async () => {
    const lock = {
      name: 'needs-download',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'needs-download', version: '1.0.0', dependencies: { 'left-pad': '1.3.0' } },
        'node_modules/left-pad': {
          version: '1.3.0',
          integrity: 'sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQGinBN9yTQT3bFlCBy/aVx2HrNcqQGsdot8ghrjyrvMCoEA==',
        },
      },
    };
    const made = await courseWithLessons(
      [
        {
          id: '1.1',
          files: {
            'package.json': JSON.stringify({
              name: 'needs-download',
              version: '1.0.0',
              scripts: { test: 'node --test' },
              dependencies: { 'left-pad': '1.3.0' },
            }),
            'package-lock.json': JSON.stringify(lock),
            '.npmrc': 'fetch-retries=0\nfetch-timeout=10000\n', // fail at once rather than retry for a minute
            'a.test.mjs': "import test from 'node:test';\ntest('passes', () => {});\n",
          },
          spec: 'lesson: "1.1"\ntitle: T\ngoal: G\n',
        },
      ],
      'verify:\n  sandbox: required\n',
    );
    scratch.push(path.dirname(made.root));
    const result = await verify(made);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const run = JSON.parse(result.stdout) as Record<string, any>;
    assert.deepEqual(run.argv, ['npm', 'ci', '--no-audit', '--no-fund', '--ignore-scripts']);
    assert.match(
      run.cause,
      /^npm ci failed: .* \(the lesson has no network: set network: true in its spec if npm ci must download dependencies\)$/,
    );
    assert.equal(existsSync(path.join(made.root, registeredLesson('1.1').dir, 'node_modules/left-pad')), false);
  },
);
