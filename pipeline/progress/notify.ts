// Tells a person when the course needs one (config.yaml `notify`, docs/protocol.md "Notifications"):
// each new item the board lists as needing a human (a gate reached, a lesson blocked, a spending
// budget used up, a task interrupted) goes once to `notify.url` (an HTTP POST of a small JSON body)
// and/or `notify.command` (an argv, the same JSON on its stdin, no shell), each only once this user
// has allowed it (pipeline/progress/notify-consent.ts). The CLI calls it after a
// command's commit, outside the lock; it never throws and waits at most NOTIFY_TIMEOUT_MS per item.
import { appendFileSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import type { NotifyConfig } from '../../content-schemas/index.ts';
import { loadConfig } from '../course/config.ts';
import { DOT_DIR, type Course } from '../course/course.ts';
import { errorCode } from '../course/errors.ts';
import { readStateFile } from '../store/state-file.ts';
import { buildBoard, emptyLog, type Board, type HumanItem } from './board.ts';
import { commandRisk, isAllowed } from './notify-consent.ts';

/** The kinds of item a notification is sent for (stale and drifted lessons wait for `state next`). */
export const NOTIFY_KINDS: readonly HumanItem['kind'][] = ['gate', 'blocked', 'budget', 'interrupted'];
/** ms a receiver (URL or command) gets before it is given up on, unless CODELABGEN_NOTIFY_TIMEOUT says otherwise. */
export const NOTIFY_TIMEOUT_MS = 3_000;

/**
 * ms a receiver gets: CODELABGEN_NOTIFY_TIMEOUT seconds when set (a receiver that is slow to answer
 * or to start, a loaded machine where a command takes seconds to start), else NOTIFY_TIMEOUT_MS.
 */
export function notifyTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.CODELABGEN_NOTIFY_TIMEOUT ?? NOTIFY_TIMEOUT_MS / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : NOTIFY_TIMEOUT_MS;
}
/** One marker file per item sent, created exclusively: two processes never send the same item. */
export const NOTIFIED_DIR = `${DOT_DIR}/notified`;
export const NOTIFY_LOG = `${DOT_DIR}/notify.log`;

/** The body sent: what happened and what resolves it; nothing from the environment or config. */
export interface Notification {
  course: string;
  kind: HumanItem['kind'];
  subject: string;
  text: string;
  command: string;
  tool: HumanItem['tool'];
}

export function notificationOf(title: string, item: HumanItem): Notification {
  return {
    course: title,
    kind: item.kind,
    subject: item.subject,
    text: item.text,
    command: item.command,
    tool: item.tool,
  };
}

/** The board's items a notification is due for (each one once, by its key). */
export function itemsToNotify(board: Board): HumanItem[] {
  return board.needs_human.filter((item) => NOTIFY_KINDS.includes(item.kind));
}

/** True for the one caller that records the item first; false when it was sent before (or cannot be recorded). */
function claim(course: Course, key: string): boolean {
  const dir = path.join(course.root, NOTIFIED_DIR);
  try {
    mkdirSync(dir, { recursive: true });
    closeSync(openSync(path.join(dir, key.replace(/[^A-Za-z0-9._-]/g, '_')), 'wx'));
    return true;
  } catch {
    return false; // sent already (EEXIST), or nowhere to record it: never send an item twice
  }
}

async function post(url: string, body: Notification, timeoutMs: number): Promise<string | null> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        title: `codelabgen: ${body.course}`.replace(/[^\x20-\x7e]/g, '?'),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    await response.body?.cancel();
    return response.ok ? null : `answered HTTP ${response.status}`;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
    return `${(error as Error).message}${(error as { cause?: Error }).cause ? `: ${(error as { cause: Error }).cause.message}` : ''}`;
  }
}

/** The environment a notify command gets: enough to find programs, none of the caller's secrets. */
function commandEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR'];
  return Object.fromEntries(keep.flatMap((key) => (process.env[key] === undefined ? [] : [[key, process.env[key]]])));
}

/** POSTs to the URL receiver when this user allowed it for this course (pipeline/progress/notify-consent.ts). */
async function urlReceiver(
  course: Course,
  url: string,
  body: Notification,
  timeoutMs: number,
): Promise<readonly [string | null, 'url']> {
  if (!isAllowed(course.root, { url }))
    return [
      'not sent: not allowed on this machine (the course would choose where codelabgen posts from here); ' +
        'allow it with: codelabgen notify allow',
      'url',
    ];
  return [await post(url, body, timeoutMs), 'url'];
}

/** Runs the command receiver when this user allowed it for this course (pipeline/progress/notify-consent.ts). */
async function commandReceiver(
  course: Course,
  argv: readonly string[],
  body: Notification,
  timeoutMs: number,
): Promise<readonly [string | null, 'command']> {
  const risk = commandRisk(course.root, argv);
  if (risk !== null) return [`not run: ${risk}`, 'command'];
  if (!isAllowed(course.root, { command: argv }))
    return [
      `not run: not allowed on this machine (it would run with your rights); allow it with: codelabgen notify allow`,
      'command',
    ];
  return [await runCommand(argv, body, timeoutMs), 'command'];
}

function runCommand(argv: readonly string[], body: Notification, timeoutMs: number): Promise<string | null> {
  // Loaded here, not at start-up: the state commands' bundle leaves child_process out of their path.
  const { spawn } = process.getBuiltinModule('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    // From the filesystem root, never the course or the caller's folder: `.` (or an empty entry) in PATH
    // and a relative argument then name nothing the course carries (pipeline/progress/notify-consent.ts).
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0] as string, argv.slice(1), {
        cwd: path.parse(process.cwd()).root,
        stdio: ['pipe', 'ignore', 'ignore'],
        env: commandEnv(),
      });
    } catch (error) {
      // spawn throws, not emits, for an argv it cannot pass on (a NUL byte): a failure like any other
      resolve(`cannot run ${argv[0]}: ${errorCode(error) ?? (error as Error).message}`);
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(`did not finish within ${timeoutMs / 1000} s`);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(`cannot run ${argv[0]}: ${errorCode(error) ?? error.message}`);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? null : `exited ${code ?? signal}`);
    });
    child.stdin?.on('error', () => {}); // a command that does not read its stdin
    child.stdin?.end(`${JSON.stringify(body)}\n`);
  });
}

/** Where a failure happened, without the URL's path or query (a topic or token may be in them). */
function receiverName(notify: NotifyConfig, which: 'url' | 'command'): string {
  if (which === 'command') return `command ${notify.command?.[0] ?? ''}`;
  try {
    return `url ${new URL(notify.url ?? '').origin}`;
  } catch {
    return 'url';
  }
}

/** Sends what the course needs a human for and was not sent yet; returns one line per failure. */
export async function notifyHumans(
  course: Course,
  options: { now?: Date; timeoutMs?: number } = {},
): Promise<string[]> {
  let notify: NotifyConfig | undefined;
  let board: Board;
  try {
    const config = loadConfig(course);
    notify = config.notify;
    if (!notify?.url && !notify?.command) return [];
    const state = readStateFile(course);
    if (state === null) return [];
    board = buildBoard({
      state,
      budgets: config.budgets,
      log: emptyLog(),
      drifted: new Set(),
      now: options.now ?? new Date(),
    });
  } catch {
    return []; // a config or state that does not read: the command that runs next says why
  }
  const timeoutMs = options.timeoutMs ?? notifyTimeoutMs();
  const failures: string[] = [];
  for (const item of itemsToNotify(board)) {
    if (!claim(course, item.key)) continue;
    const body = notificationOf(board.title, item);
    const sent = await Promise.all([
      notify.url ? urlReceiver(course, notify.url, body, timeoutMs) : null,
      notify.command ? commandReceiver(course, notify.command, body, timeoutMs) : null,
    ]);
    for (const [why, which] of sent.flatMap((result) => (result && result[0] !== null ? [result] : [])))
      failures.push(`notify ${item.kind} ${item.subject}: ${receiverName(notify, which)}: ${why}`);
  }
  if (failures.length > 0) logFailures(course, failures);
  return failures;
}

function logFailures(course: Course, failures: readonly string[]): void {
  const at = new Date().toISOString();
  try {
    appendFileSync(path.join(course.root, NOTIFY_LOG), failures.map((line) => `${at} ${line}\n`).join(''));
  } catch {
    // the log is a courtesy: the caller shows the same lines
  }
}
