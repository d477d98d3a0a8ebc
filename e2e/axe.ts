// axe-core's violations on a page, as @axe-core/playwright's AxeBuilder finds them in legacy mode (the same
// axe-core, configuration, context and options), but with axe injected once per document: AxeBuilder
// evaluates axe's whole source twice on every analyze(), which was most of an a11y check's CPU.
// Legacy mode runs axe in the page itself (AxeBuilder's other mode opens a blank page per check to merge
// the results of frames): the callers fail on any <iframe>, which this would not look into.
import type { Page } from '@playwright/test';
import axe from 'axe-core';

type Window = { axe?: typeof axe };

/**
 * What `new AxeBuilder({ page }).setLegacyMode(true).options(options)`, with `.include(selector)` for each
 * of `include` and `.withRules(rules)` when given, then `.analyze()` reports as violations.
 */
export async function axeViolations(
  page: Page,
  { options = {}, include = [], rules }: { options?: axe.RunOptions; include?: string[]; rules?: string[] } = {},
): Promise<axe.Result[]> {
  if (!(await page.evaluate(() => typeof (window as Window).axe === 'object'))) {
    await page.evaluate(axe.source);
    await page.evaluate(() =>
      (window as Window).axe!.configure({ allowedOrigins: ['<same_origin>'], branding: { application: 'playwright' } }),
    );
  }
  const run: axe.RunOptions = rules ? { ...options, runOnly: { type: 'rule', values: rules } } : options;
  // AxeBuilder's context: nothing excluded, and an empty `include` for the whole page.
  const violations: unknown = await page.evaluate(
    async ({ include, run }) =>
      (await (window as Window).axe!.run({ exclude: [], include } as axe.ElementContext, run as axe.RunOptions))
        .violations,
    { include, run: run as Record<string, unknown> },
  );
  return violations as axe.Result[];
}
