// Where codelabgen finds a Chromium: the one list every caller reads (site builds' diagrams, `site dev`,
// the browser tests, the benches). .ci/run keeps the same list in bash; cli/scan-chromium.test.ts checks
// that nothing else names one of these paths and that .ci/run's list is this one.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The system Chromiums looked at, in order, after $CODELABGEN_CHROMIUM. Debian's `chromium-headless-shell`
 * comes first: the same engine built for headless use only (what Playwright itself runs headless), about
 * 40% less CPU per page than the full browser (docs/testing.md, "Where the cores go").
 */
export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
] as const;

/**
 * A Chromium to draw or test with: $CODELABGEN_CHROMIUM (a path; `none` turns it off), else the first
 * of SYSTEM_CHROMIUMS that exists, else Playwright's own browser when installed; null when there is none.
 * A path named by $CODELABGEN_CHROMIUM is returned whether it exists or not: the user chose that browser,
 * so a wrong path fails where it is launched, naming it and the variable, instead of another browser
 * drawing in its place unsaid.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CODELABGEN_CHROMIUM === 'none') return null;
  if (env.CODELABGEN_CHROMIUM) return env.CODELABGEN_CHROMIUM;
  for (const candidate of SYSTEM_CHROMIUMS) {
    if (existsSync(candidate)) return candidate;
  }
  try {
    const { chromium } = createRequire(import.meta.url)('playwright') as { chromium: { executablePath(): string } };
    const own = chromium.executablePath();
    return existsSync(own) ? own : null;
  } catch {
    return null; // no playwright browser either
  }
}

/** How a message names where Chromium is looked for. */
export const CHROMIUM_PLACES =
  "$CODELABGEN_CHROMIUM, /usr/bin/chromium-headless-shell, /usr/bin/chromium or Playwright's own";
