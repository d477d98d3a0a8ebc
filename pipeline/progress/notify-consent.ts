// Consent for the course's notify receivers: config.yaml is course content (committed, cloned,
// changed in a pull request). A `notify.command` from it would run with the rights of whoever runs
// codelabgen, outside the lesson sandbox (on `git clone && codelabgen state next`, or in a CI job with
// its secrets); a `notify.url` would have codelabgen POST from this machine to wherever the course
// says (a service on loopback or the local network the course's author cannot reach). So a receiver
// is used only once this user has allowed that exact argv or URL for that course on this machine
// (`codelabgen notify allow`, as direnv's `direnv allow`); another argv or URL, or the same in another
// folder, needs its own consent. The consents are kept per user, never in the course: a file the
// course carries cannot grant one.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The user's consent file: $XDG_CONFIG_HOME/codelabgen/notify-allowed.json, else ~/.config/codelabgen/. */
export function consentFile(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : null;
  const home = env.HOME && path.isAbsolute(env.HOME) ? env.HOME : os.homedir();
  return path.join(xdg ?? path.join(home, '.config'), 'codelabgen', 'notify-allowed.json');
}

/** A receiver consented to: the argv of a command or a URL. */
export type Receiver = { command: readonly string[] } | { url: string };

/**
 * One consent: the course's real folder and the exact argv or URL, hashed (the file names no paths,
 * no URLs). An argv is hashed as JSON (it starts with `[`), a URL after `url\0`: they never meet.
 */
function consentKey(courseRoot: string, receiver: Receiver): string {
  const what = 'command' in receiver ? JSON.stringify(receiver.command) : `url\0${receiver.url}`;
  return createHash('sha256')
    .update(`${realpathSync.native(courseRoot)}\0${what}`)
    .digest('hex');
}

function readConsents(file: string): string[] {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { allowed?: unknown };
    return Array.isArray(kept.allowed) ? kept.allowed.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return []; // none yet, or unreadable: nothing is allowed
  }
}

/**
 * Why `argv` cannot be consented to, or null. A consent covers an argv, not the bytes of a file it
 * names: a program given as a relative path (`./notify.sh`, resolved where codelabgen runs) or an
 * absolute path inside the course (the program or an argument, e.g. a script) would run whatever the
 * course later puts there (a pull, a clone), so neither is allowed. A path inside an argument's text
 * (`-e CODE`) is not seen: the consent is to that exact text. The command runs from `/` (pipeline/progress/notify.ts), so a bare
 * name found through `.` in PATH, or a relative argument, never reaches the course either.
 */
export function commandRisk(courseRoot: string, argv: readonly string[]): string | null {
  const program = argv[0] ?? '';
  if (program.includes('/') && !path.isAbsolute(program))
    return (
      `notify.command's program ${JSON.stringify(program)} is a relative path: ` +
      'give a program name found in PATH or an absolute path outside the course'
    );
  const root = realOrSame(path.resolve(courseRoot));
  const inside = (file: string) => file === root || file.startsWith(`${root}${path.sep}`);
  for (const arg of argv) {
    const real = path.isAbsolute(arg) ? realOrSame(path.resolve(arg)) : null;
    if (real !== null && inside(real))
      return (
        `notify.command names ${JSON.stringify(arg)}, inside the course: a consent would cover whatever ` +
        'the course later puts there; keep the program and its files outside the course'
      );
  }
  return null;
}

/** The real path of a file that exists, else the path as given. */
function realOrSame(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    return file;
  }
}

/** Whether this user allowed `receiver` for the course (a command that is a risk never is). */
export function isAllowed(courseRoot: string, receiver: Receiver, env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    if ('command' in receiver && commandRisk(courseRoot, receiver.command) !== null) return false;
    return readConsents(consentFile(env)).includes(consentKey(courseRoot, receiver));
  } catch {
    return false;
  }
}

/** Records this user's consent to the receivers for the course (a temp file renamed over the old one). */
export function allowReceivers(
  courseRoot: string,
  receivers: readonly Receiver[],
  env: NodeJS.ProcessEnv = process.env,
): void {
  const file = consentFile(env);
  const keys = receivers.map((receiver) => consentKey(courseRoot, receiver));
  const allowed = readConsents(file).filter((kept) => !keys.includes(kept));
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ allowed: [...allowed, ...keys] }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}
