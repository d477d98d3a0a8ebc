// Page weight: every lesson page of the demo course's publish build (the learner view) transfers at
// most 40 KB gzip: its HTML and every stylesheet and script the browser loads for it (until the
// network is idle, with an empty cache), each file gzipped on its own as a server would send it.
// Images and fonts are not counted. Prints each page's figure (docs/performance.md has them).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { lessons, lessonUrl } from './course.ts';
import { expect, test } from './fixtures.ts';
import { resolveFile } from './static-server.ts';

const BUDGET = 40 * 1024;
const COUNTED = new Set(['document', 'stylesheet', 'script']);

test('every lesson page weighs at most 40 KB gzip (HTML + the CSS and JS it loads)', async ({ browser }, testInfo) => {
  const root = path.join(process.env.E2E_DIR!, 'site-root');
  const rows: string[] = [];
  const over: string[] = [];
  for (const lesson of lessons()) {
    // A new context per page: nothing cached from the page before.
    const context = await browser.newContext();
    const page = await context.newPage();
    const loaded: Array<{ path: string; type: string }> = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (COUNTED.has(type)) loaded.push({ path: new URL(response.url()).pathname, type });
    });
    await page.goto(lessonUrl(lesson), { waitUntil: 'networkidle' });
    await context.close();
    // The bytes the static server sent for each (the built files, as they are).
    const files = loaded.map(({ path, type }) => {
      const file = resolveFile(root, '/', path);
      if (file === null) throw new Error(`${lesson.id}: ${path} is not a file of the build`);
      return { path, type, gzip: gzipSync(readFileSync(file)).length };
    });
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    const part = (type: string) => kb(files.filter((f) => f.type === type).reduce((sum, f) => sum + f.gzip, 0));
    rows.push(
      `${lesson.id.padEnd(5)} ${kb(total).padStart(6)} KB gzip (HTML ${part('document')}, CSS ` +
        `${part('stylesheet')}, JS ${part('script')}; ${files.length} files)`,
    );
    if (total > BUDGET)
      over.push(`${lesson.id} ${kb(total)} KB: ${files.map((f) => `${f.path} ${kb(f.gzip)}`).join(', ')}`);
  }
  const report = rows.join('\n');
  process.stdout.write(`lesson page weight (gzip, each file on its own):\n${report}\n`);
  await testInfo.attach('page-weight.txt', { body: report, contentType: 'text/plain' });
  expect(over, `lesson pages over ${kb(BUDGET)} KB gzip`).toEqual([]);
});

function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}
