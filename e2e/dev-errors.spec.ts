// `codelabgen site dev` prints broken content in the terminal as `error:` lines as well as showing
// it in the page. Not timed (the 2 s budget is dev.spec.ts's); it runs in the `dev` project, alone.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { lessonDir, lessons } from './course.ts';
import { startDev, warmUp } from './dev-course.ts';

test('site dev: a broken code reference, bad YAML and a mermaid syntax error print error: lines', async ({ page }) => {
  test.setTimeout(300_000);
  const dev = await startDev();
  try {
    const lesson = lessons()[0]!;
    const dir = lessonDir(lesson, dev.course);
    await page.goto(`http://localhost:${dev.port}/lessons/${lesson.id}-${lesson.slug}/`);
    await warmUp(page, path.join(dir, 'docs', 'notes.md'));
    appendFileSync(path.join(dir, 'docs', 'readalong.md'), '\n```ts file=src/no-such-file.ts\n```\n');
    await expect(page.locator('body')).toContainText('no such file in the lesson folder', { timeout: 30_000 });
    await expect.poll(dev.output, { timeout: 10_000 }).toMatch(new RegExp(`^error: lesson ${lesson.id.replace('.', '\\.')} docs/readalong\\.md:\\d+: code reference file=src/no-such-file\\.ts: no such file in the lesson folder$`, 'm'));
    appendFileSync(path.join(dir, 'docs', 'notes.md'), '\n```mermaid\nflowchart LR\n  A -->\n```\n');
    await expect.poll(dev.output, { timeout: 30_000 }).toMatch(new RegExp(`^error: lesson ${lesson.id.replace('.', '\\.')} diagram docs/notes\\.md:\\d+ .*`, 'm'));
    const curriculum = path.join(dev.course, '.codelabgen', 'curriculum.yaml');
    appendFileSync(curriculum, '  broken: [\n');
    await expect.poll(dev.output, { timeout: 10_000 }).toMatch(/^error: \.codelabgen\/curriculum\.yaml: invalid YAML: /m);
    await expect(page.locator('body')).toContainText('error: .codelabgen/curriculum.yaml: invalid YAML', { timeout: 30_000 });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- site dev output ---\n${dev.output()}`, { cause: error });
  } finally {
    await dev.close();
  }
});
