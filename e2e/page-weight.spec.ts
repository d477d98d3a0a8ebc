// Page weight: every lesson page of the demo course's publish build (the learner view) transfers at
// most 40 KB gzip: its HTML and every stylesheet and script the browser loads for it (until the
// network is idle), each gzipped on its own as a server would send it, with an empty cache. Images
// and fonts are not counted (nor lazily loaded diagram images). Prints each page's figure.
import { gzipSync } from 'node:zlib';
import { lessons, lessonUrl } from './course.ts';
import { expect, test } from './fixtures.ts';

const BUDGET = 40 * 1024;
const COUNTED = new Set(['document', 'stylesheet', 'script']);

test('every lesson page weighs at most 40 KB gzip (HTML + the CSS and JS it loads)', async ({ browser }, testInfo) => {
  const rows: string[] = [];
  const over: string[] = [];
  for (const lesson of lessons()) {
    // A new context per page: nothing cached from the page before.
    const context = await browser.newContext();
    const page = await context.newPage();
    const bodies: Array<Promise<{ url: string; type: string; raw: number; gzip: number }>> = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (COUNTED.has(type)) bodies.push(response.body().then((b) => ({ url: response.url(), type, raw: b.length, gzip: gzipSync(b).length })));
    });
    await page.goto(lessonUrl(lesson), { waitUntil: 'networkidle' });
    const files = await Promise.all(bodies);
    await context.close();
    const total = files.reduce((sum, f) => sum + f.gzip, 0);
    const part = (type: string) => kb(files.filter((f) => f.type === type).reduce((sum, f) => sum + f.gzip, 0));
    rows.push(`${lesson.id.padEnd(5)} ${kb(total).padStart(7)} KB gzip (HTML ${part('document')}, CSS ${part('stylesheet')}, JS ${part('script')}; ${files.length} files)`);
    if (total > BUDGET) over.push(`${lesson.id} ${kb(total)} KB: ${files.map((f) => `${new URL(f.url).pathname} ${kb(f.gzip)}`).join(', ')}`);
  }
  const report = rows.join('\n');
  process.stdout.write(`lesson page weight (gzip, each file on its own):\n${report}\n`);
  await testInfo.attach('page-weight.txt', { body: report, contentType: 'text/plain' });
  expect(over, `lesson pages over ${kb(BUDGET)} KB gzip`).toEqual([]);
});

function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}
