// The `test` every static-site spec uses: fails a test whose pages logged a console error or threw
// an uncaught exception (each with its page URL), so every page a test visits is checked for it.
import { test as base, expect, type Page } from '@playwright/test';

export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${page.url()}: console error: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught: ${error.message}`));
      await use(errors);
      expect(errors, 'console errors on the pages this test visited').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Opens `url` at `width` px (900 px high) in the colour scheme `theme` and waits for the network to settle. */
export async function openPage(page: Page, url: string, width: number, theme: 'light' | 'dark'): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(url, { waitUntil: 'networkidle' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}
