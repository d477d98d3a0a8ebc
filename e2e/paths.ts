// Shared locations of the e2e run: the repo, the built CLI, the non-root base, the system Chromium.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../pipeline/site/chromium.ts';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BASE_PATH = '/course-site/';

export function cliPath(): string {
  return path.join(REPO, 'bin', 'codelabgen.cjs');
}

/**
 * The browser the tests drive: the Chromium a site build draws with (findChromium: $CODELABGEN_CHROMIUM, then
 * the system's), except that CODELABGEN_CHROMIUM=none (builds without one) still leaves the tests a browser;
 * undefined: Playwright's own.
 */
export function chromiumPath(): string | undefined {
  const { CODELABGEN_CHROMIUM, ...env } = process.env;
  return findChromium(CODELABGEN_CHROMIUM === 'none' ? env : process.env) ?? undefined;
}
