// Notifications (config.yaml `notify`) through the real CLI with local receivers: a POST per new item
// that needs a human, sent once; a receiver that never answers costs the command a warning after the
// timeout, outside the lock, and the state change stands; a command receiver gets the JSON on stdin
// and none of the caller's environment; an interrupted task is told by whoever sees its lease ran out.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { after, test } from 'node:test';
import { courseAt as courseFolder } from '../pipeline/course/course.ts';
import { notifyHumans, NOTIFY_TIMEOUT_MS, notifyTimeoutMs } from '../pipeline/progress/notify.ts';
import { ARTIFACTS_BY_PHASE, courseAt, ok, readJson } from './protocol-fixture.ts';
import { cli, cliAsync, removeDir } from './testing.ts';

interface Receiver {
  url: string;
  bodies: Record<string, unknown>[];
  /** Resolves when the next request arrives (its body read). */
  next(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A local HTTP receiver; `answer: false` reads each request and never answers it. */
async function receiver(answer: boolean): Promise<Receiver> {
  const bodies: Record<string, unknown>[] = [];
  const waiting: ((body: Record<string, unknown>) => void)[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      bodies.push(body);
      waiting.shift()?.(body);
      if (answer) res.end('ok');
      else open.add(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/codelabgen-topic`,
    bodies,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const roots: string[] = [];
const receivers: Receiver[] = [];
after(async () => {
  for (const r of receivers) await r.close();
  for (const root of roots) removeDir(path.dirname(root));
});

/**
 * ms a receiver that answers gets here (CODELABGEN_NOTIFY_TIMEOUT): the receiver is this process, or
 * a node command, and on a loaded machine either took over NOTIFY_TIMEOUT_MS (3 s) to answer.
 */
const ANSWERS_WITHIN_S = '120';

/**
 * A course at `phase` whose notify.url is a local receiver, allowed by this (test) user unless
 * `allow` is false; `env` points the CLI at that user's consents (XDG_CONFIG_HOME, beside the course)
 * and gives a receiver ANSWERS_WITHIN_S.
 */
async function courseWith(
  phase: string,
  answer: boolean,
  { allow = true }: { allow?: boolean } = {},
): Promise<{ root: string; rx: Receiver; env: { XDG_CONFIG_HOME: string; CODELABGEN_NOTIFY_TIMEOUT: string } }> {
  const rx = await receiver(answer);
  receivers.push(rx);
  const root = courseAt(phase);
  roots.push(root);
  appendFileSync(path.join(root, '.codelabgen', 'config.yaml'), `notify:\n  url: ${rx.url}\n`);
  const env = {
    XDG_CONFIG_HOME: path.join(path.dirname(root), 'user-config'),
    CODELABGEN_NOTIFY_TIMEOUT: ANSWERS_WITHIN_S,
  };
  if (allow) {
    const allowed = cli(['notify', 'allow'], { cwd: root, env });
    assert.equal(allowed.code, 0, allowed.stderr);
  }
  return { root, rx, env };
}

test('reaching a gate POSTs one notification with the command and the MCP call that resolve it, once', async () => {
  const { root, rx, env } = await courseWith('sources', true);
  ARTIFACTS_BY_PHASE.sources?.(root);
  const result = await cliAsync(['state', 'phase', 'gate_sources'], { cwd: root, env }).done;
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.deepEqual(rx.bodies, [
    {
      course: 'Streams',
      kind: 'gate',
      subject: 'gate_sources',
      text: 'gate gate_sources: the user approves what came before, then the course moves on to topics',
      command: 'codelabgen state phase topics --approved',
      tool: { name: 'state_phase', arguments: { next: 'topics', approved: true } },
    },
  ]);
  for (const args of [
    ['state', 'next'],
    ['state', 'log', 'note', '--data', 'a=b'],
  ])
    assert.equal((await cliAsync(args, { cwd: root, env }).done).code, 0);
  assert.equal(rx.bodies.length, 1, 'the same gate is not sent again');
});

test('CODELABGEN_NOTIFY_TIMEOUT is the seconds a receiver gets; unset, not above 0 or not a number: 3 s', () => {
  assert.deepEqual(
    [undefined, '120', '0.5', '0', '-1', 'soon'].map((value) => notifyTimeoutMs({ CODELABGEN_NOTIFY_TIMEOUT: value })),
    [NOTIFY_TIMEOUT_MS, 120_000, 500, NOTIFY_TIMEOUT_MS, NOTIFY_TIMEOUT_MS, NOTIFY_TIMEOUT_MS],
  );
  assert.equal(NOTIFY_TIMEOUT_MS, 3000);
});

test('a receiver that never answers: the command succeeds after the timeout with a warning, outside the lock', async () => {
  const { root, rx, env } = await courseWith('lessons', false);
  const arrived = rx.next();
  // 10 s, not the default 3 s: the POST must reach the receiver (this process) before the CLI gives up,
  // and on a loaded machine 3 s ran out first (this test then waited for a POST that never came).
  const blocking = cliAsync(['state', 'block', '1.1', '--reason', 'the user picks the example'], {
    cwd: root,
    env: { ...env, CODELABGEN_NOTIFY_TIMEOUT: '10' },
  });
  const posted = await Promise.race([arrived, blocking.done.then(() => null)]);
  assert.equal(posted?.kind, 'blocked', 'the command ended before its notification was read');
  // While it waits for the receiver, the change is committed and the lock is free.
  assert.equal(
    (readJson(root, '.codelabgen/state.json') as any).lessons['1.1'].blocked.reason,
    'the user picks the example',
  );
  const other = cli(['state', 'log', 'note', '--data', 'while=waiting'], { cwd: root });
  assert.equal(other.code, 0, other.stderr);
  const result = await blocking.done;
  assert.equal(result.code, 0);
  const origin = new URL(rx.url).origin;
  const line = `warning: notify blocked 1.1: url ${origin}: no answer within 10 s`;
  assert.equal(result.stderr, `${line}\n`);
  assert.doesNotMatch(result.stderr, /codelabgen-topic/, 'the URL path (a topic, a token) is never printed');
  assert.match(
    readFileSync(path.join(root, '.codelabgen', 'notify.log'), 'utf8'),
    new RegExp(`^\\S+Z ${line.slice(9).replace(/[.()]/g, '\\$&')}\n$`),
  );
});

test('a command receiver gets the JSON on stdin and a bare environment; a budget used up is told', async () => {
  const { root, rx, env } = await courseWith('lessons', true);
  const out = path.join(root, 'received.json');
  const script = [
    "let s='';",
    "process.stdin.on('data', (d) => (s += d)).on('end', () =>",
    `  require('fs').appendFileSync(${JSON.stringify(out)},`,
    "    JSON.stringify({ body: JSON.parse(s), env: Object.keys(process.env).sort() }) + '\\n'));",
  ].join('\n');
  appendFileSync(
    path.join(root, '.codelabgen', 'config.yaml'),
    `  command: [${JSON.stringify(process.execPath)}, -e, ${JSON.stringify(script)}]\nbudgets: { cost_usd: 0.5 }\n`,
  );
  // The command runs with the user's rights: only once this user allowed it (kept outside the course).
  const allowed = cli(['notify', 'allow'], { cwd: root, env });
  assert.equal(allowed.code, 0, allowed.stderr);
  const task = ok(root, 'state', 'task', 'start', '1.1').trim();
  const status = { lesson: '1.1', status: 'ok', stage: 'spec', artifacts: [], usage: { cost_usd: 0.5 } };
  // Async: the receiver answers from this process.
  const done = await cliAsync(['state', 'task', 'done', task, '--result', '-'], {
    cwd: root,
    input: JSON.stringify(status),
    env: { SECRET_TOKEN: 'do-not-send', ...env },
  }).done;
  assert.equal(done.code, 0, done.stderr);
  assert.equal(done.stderr, '');
  const received = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    received.map((r) => [r.body.kind, r.body.subject]),
    [['budget', 'budgets.cost_usd']],
  );
  assert.deepEqual(
    received[0].env.filter((key: string) => !['PATH', 'HOME', 'LANG', 'TMPDIR'].includes(key)),
    [],
  );
  assert.deepEqual(
    rx.bodies,
    received.map((r) => r.body),
  );
});

test('an interrupted task is told once when its lease has run out (the clock injected)', async () => {
  const { root, rx, env } = await courseWith('lessons', true);
  const task = ok(root, 'state', 'task', 'start', '2.1', '--lease', '90s').trim();
  const course = courseFolder(root);
  // notifyHumans runs in this process: it reads this user's consents where the CLI recorded them.
  const own = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = env.XDG_CONFIG_HOME;
  after(() => {
    if (own === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = own;
  });
  // The receiver answers from this process: given ANSWERS_WITHIN_S, not the 3 s a stall of it can outlast.
  const timeoutMs = Number(ANSWERS_WITHIN_S) * 1000;
  assert.deepEqual(await notifyHumans(course, { now: new Date(Date.now() + 60_000), timeoutMs }), []);
  assert.equal(rx.bodies.length, 0, 'a lease that holds is no notification');
  const later = new Date(Date.now() + 120_000);
  assert.deepEqual(await notifyHumans(course, { now: later, timeoutMs }), []);
  assert.deepEqual(await notifyHumans(course, { now: later, timeoutMs }), []);
  assert.deepEqual(
    rx.bodies.map((body) => [body.kind, body.subject, body.command]),
    [['interrupted', task, `codelabgen state task reset ${task}`]],
  );
});

test("a course's notify.url gets nothing until this user allowed that exact URL for that folder", async () => {
  const { root, rx, env } = await courseWith('lessons', true, { allow: false });
  const configFile = path.join(root, '.codelabgen', 'config.yaml');
  const block = (id: string) => cliAsync(['state', 'block', id, '--reason', `wait ${id}`], { cwd: root, env }).done;

  // Not allowed (a clone, a CI job): nothing is posted; the warning names the origin only and how to allow it.
  const first = await block('1.1');
  assert.equal(first.code, 0, first.stderr);
  const origin = new URL(rx.url).origin;
  assert.equal(
    first.stderr,
    `warning: notify blocked 1.1: url ${origin}: not sent: not allowed on this machine (the course would choose ` +
      'where codelabgen posts from here); allow it with: codelabgen notify allow\n',
  );
  assert.equal(rx.bodies.length, 0, 'posted without consent');

  // Allowed: the next item is posted; --json says what was allowed.
  const allowed = cli(['notify', 'allow', '--json'], { cwd: root, env });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.deepEqual(JSON.parse(allowed.stdout), { allowed: null, url: rx.url, course: realpathSync(root) });
  assert.equal((await block('1.2')).stderr, '');
  assert.deepEqual(
    rx.bodies.map((body) => body.subject),
    ['1.2'],
  );

  // Another URL (a pull request changed it) is another consent.
  writeFileSync(configFile, readFileSync(configFile, 'utf8').replace(rx.url, `${rx.url}-changed`));
  const third = await block('2.1');
  assert.match(third.stderr, /url .*: not sent: not allowed on this machine/);
  assert.equal(rx.bodies.length, 1);
});

test("a course's notify.command runs only once this user allowed that exact command for that folder", async () => {
  const { root, rx, env } = await courseWith('lessons', true);
  const config = env.XDG_CONFIG_HOME;
  const ran = path.join(path.dirname(root), 'ran.txt');
  const commandOf = (word: string) =>
    `[${JSON.stringify(process.execPath)}, -e, ${JSON.stringify(`require('fs').appendFileSync(${JSON.stringify(ran)}, '${word}\\n')`)}]`;
  const configFile = path.join(root, '.codelabgen', 'config.yaml');
  appendFileSync(configFile, `  command: ${commandOf('first')}\n`);
  const block = (id: string) => cliAsync(['state', 'block', id, '--reason', `wait ${id}`], { cwd: root, env }).done;

  // Not allowed (a clone, a CI job): not run; the warning says why and how to allow it; the URL, allowed, still gets it.
  const first = await block('1.1');
  assert.equal(first.code, 0, first.stderr);
  assert.match(
    first.stderr,
    /^warning: notify blocked 1\.1: command .*: not run: not allowed on this machine .*allow it with: codelabgen notify allow$/m,
  );
  assert.equal(existsSync(ran), false, 'the command ran without consent');
  assert.equal(rx.bodies.length, 1);

  // Allowed: it runs; the consent lives in the user's config, not in the course.
  assert.equal(cli(['notify', 'allow'], { cwd: root, env }).code, 0);
  assert.ok(existsSync(path.join(config, 'codelabgen', 'notify-allowed.json')));
  const second = await block('1.2');
  assert.equal(second.stderr, '');
  assert.equal(readFileSync(ran, 'utf8'), 'first\n');

  // A changed command is another one: not run until allowed again.
  writeFileSync(configFile, readFileSync(configFile, 'utf8').replace(commandOf('first'), commandOf('changed')));
  const third = await block('2.1');
  assert.match(third.stderr, /not allowed on this machine/);
  assert.equal(readFileSync(ran, 'utf8'), 'first\n');

  // Nothing to allow: a refusal naming the fields.
  writeFileSync(configFile, readFileSync(configFile, 'utf8').replace(/^notify:\n(?: {2}.*\n?)*/m, ''));
  const none = cli(['notify', 'allow'], { cwd: root, env });
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /^error: notify allow: \.codelabgen\/config\.yaml has no notify\.command or notify\.url to allow/,
  );
});

test('a consent never covers a file the course can change: relative programs, course paths, `.` in PATH', async () => {
  const { root } = await courseWith('lessons', true);
  const config = path.join(path.dirname(root), 'user-config');
  const ran = path.join(path.dirname(root), 'ran.txt');
  const configFile = path.join(root, '.codelabgen', 'config.yaml');
  const base = readFileSync(configFile, 'utf8');
  const withCommand = (argv: string[]) => writeFileSync(configFile, `${base}  command: ${JSON.stringify(argv)}\n`);
  // A script the course carries: what a consent to it would cover is whatever the course later puts there.
  const script = `#!/bin/sh\necho course-script >> ${JSON.stringify(ran)}\n`;
  writeFileSync(path.join(root, 'notify.sh'), script, { mode: 0o755 });
  writeFileSync(path.join(root, 'notify-cmd'), script, { mode: 0o755 });
  writeFileSync(path.join(root, 'notify.js'), `require('fs').appendFileSync(${JSON.stringify(ran)}, 'course-js\\n')`);
  const env = { XDG_CONFIG_HOME: config, PATH: `.:${process.env.PATH}`, CODELABGEN_NOTIFY_TIMEOUT: ANSWERS_WITHIN_S };

  // Refused at consent: a relative program, a program or argument inside the course (absolute).
  for (const argv of [
    ['./notify.sh'],
    [path.join(root, 'notify.sh')],
    [process.execPath, path.join(root, 'notify.js')],
  ]) {
    withCommand(argv);
    const allow = cli(['notify', 'allow'], { cwd: root, env });
    assert.equal(allow.code, 2, `${JSON.stringify(argv)} was allowed: ${allow.stdout}`);
    assert.match(
      allow.stderr,
      /^error: notify allow: notify\.command('s program| names) .*(relative path|inside the course)/,
    );
  }

  // Allowed, but run from `/` with absolute PATH entries only: a bare name or a relative argument
  // never finds the course's file, whatever folder codelabgen runs from.
  let n = 0;
  for (const argv of [['notify-cmd'], [process.execPath, 'notify.js']]) {
    withCommand(argv);
    assert.equal(cli(['notify', 'allow'], { cwd: root, env }).code, 0);
    n += 1;
    const blocked = await cliAsync(['state', 'block', `1.${n}`, '--reason', 'x'], { cwd: root, env }).done;
    assert.equal(blocked.code, 0, blocked.stderr);
    assert.match(blocked.stderr, /^warning: notify blocked .*: command .*: (exited|cannot run)/m);
  }
  assert.equal(existsSync(ran), false, `a course file ran: ${existsSync(ran) ? readFileSync(ran, 'utf8') : ''}`);
});

test('a command spawn cannot even start (a NUL byte in it) is a warning, never a notification lost in silence', async () => {
  const { root } = await courseWith('lessons', true);
  const env = { XDG_CONFIG_HOME: path.join(path.dirname(root), 'user-config') };
  appendFileSync(path.join(root, '.codelabgen', 'config.yaml'), '  command: ["notify\\u0000send"]\n');
  assert.equal(cli(['notify', 'allow'], { cwd: root, env }).code, 0);
  const blocked = await cliAsync(['state', 'block', '1.1', '--reason', 'x'], { cwd: root, env }).done;
  assert.equal(blocked.code, 0, blocked.stderr);
  assert.match(
    blocked.stderr,
    /^warning: notify blocked 1\.1: command notify\\u0000send: cannot run .*ERR_INVALID_ARG_VALUE/m,
  );
  assert.match(readFileSync(path.join(root, '.codelabgen', 'notify.log'), 'utf8'), /cannot run/);
});
