// Browser end-to-end tests (e2e/) against the site the demo builds; see e2e/global-setup.ts.
// Chromium: the one site builds draw with (pipeline/site/chromium.ts), else Playwright's own (never downloaded here).
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './e2e/paths.ts';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './e2e/global-setup.ts',
  globalTimeout: 15 * 60_000,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // The pages mostly wait (network idle, client-side mermaid), so four browsers beat two on 2 cores.
  workers: 4,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [['list']],
  projects: [
    // The `site dev` specs share one dev server and run in order in one worker (the last leaves the
    // course broken). They time nothing (how fast a save shows is bench/dev.ts's figure) and wait
    // generously, so they run beside the other specs; listed first, so that this longest chain of
    // tests starts first instead of running alone at the end.
    { name: 'dev', testMatch: ['**/dev.spec.ts'], fullyParallel: false },
    { name: 'site', testIgnore: ['**/dev.spec.ts'] },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    // No trace by default: recording one for every test (kept only on a failure) cost about a fifth of the
    // browser tests' CPU (docs/testing.md, "Where the cores go"). To see a failure's trace, run the spec again
    // with `npx playwright test --trace retain-on-failure FILE`.
    trace: 'off',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
