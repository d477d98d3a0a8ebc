// Shared locations of the e2e run: the repo, the built CLI, the non-root base, the system Chromium.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BASE_PATH = '/course-site/';

export function cliPath(): string {
  return path.join(REPO, 'bin', 'codelabgen.cjs');
}

/** $CODELABGEN_CHROMIUM, else Debian's /usr/bin/chromium, else undefined (Playwright's own browser). */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env.CODELABGEN_CHROMIUM;
  if (fromEnv && fromEnv !== 'none' && existsSync(fromEnv)) return fromEnv;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}
