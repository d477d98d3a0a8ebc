// Consent for `notify.command`: config.yaml is course content (committed, cloned, changed in a pull
// request), and a command from it would run with the rights of whoever runs codelabgen, outside the
// lesson sandbox: a course's own command would run on `git clone && codelabgen state next`, or in a
// CI job with its secrets. So a command receiver runs only once this user has allowed that exact argv
// for that course on this machine (`codelabgen notify allow`, as direnv's `direnv allow`); another
// argv, or the same in another folder, needs its own consent. The consents are kept per user, never
// in the course: a file the course carries cannot grant one.
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

/** One consent: the course's real folder and the exact argv, hashed (the file names no paths). */
function consentKey(courseRoot: string, argv: readonly string[]): string {
  return createHash('sha256')
    .update(`${realpathSync.native(courseRoot)}\0${JSON.stringify(argv)}`)
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

export function isCommandAllowed(courseRoot: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  try {
    return readConsents(consentFile(env)).includes(consentKey(courseRoot, argv));
  } catch {
    return false;
  }
}

/** Records this user's consent to run `argv` for the course (a temp file renamed over the old one). */
export function allowCommand(courseRoot: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  const file = consentFile(env);
  const key = consentKey(courseRoot, argv);
  const allowed = readConsents(file).filter((kept) => kept !== key);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ allowed: [...allowed, key] }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}
