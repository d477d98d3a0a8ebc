// Browser end-to-end tests (e2e/) against the site the demo builds; see e2e/global-setup.ts.
// Chromium: $CODELABGEN_CHROMIUM, else /usr/bin/chromium, else Playwright's own (never downloaded here).
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
    // authoring.spec.ts starts `site dev` too but times nothing: it runs with the others.
    { name: 'site', testIgnore: ['**/dev.spec.ts'] },
    // The `site dev` specs time saves against a 2 s budget and wait for the page to show errors (its
    // error test once missed its 30 s beside the other specs on a loaded machine): they run after the
    // others, one at a time, so no other browser or build competes for the 2 cores meanwhile.
    { name: 'dev', testMatch: ['**/dev.spec.ts'], dependencies: ['site'], workers: 1, fullyParallel: false },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
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
