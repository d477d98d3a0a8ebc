// A rebuild with the content cache kept from the last build (entries stored by digest) shows an
// edit made in between: a kept cache never serves a lesson's old text.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { generateCourse } from '../../bench/generate-course.ts';
import { cliAsync, scratchDir, type CliResult } from '../../cli/testing.ts';

const work = scratchDir('codelabgen-site-rebuild-');
const root = path.join(work, 'course');
const out = path.join(work, 'out');
const env = { CODELABGEN_DIAGRAM_CACHE: path.join(work, 'diagrams'), CODELABGEN_CHROMIUM: 'none' };
const build = async (): Promise<CliResult> => cliAsync(['site', 'build', '--course', root, '--out', out], { env, timeoutMs: 300_000 }).done;
const page = (slug: string) => path.join(out, 'lessons', slug, 'index.html');
let mtimes: Record<string, number> = {};
let pages: Record<string, string> = {};
let rebuilt: CliResult;

before(async () => {
  const { dirs } = await generateCourse(root, { lessons: 3 });
  const first = await build();
  assert.equal(first.code, 0, first.stderr);
  const slugs = ['1.1-lesson-1', '1.2-lesson-2', '1.3-lesson-3'];
  mtimes = Object.fromEntries(slugs.map((slug) => [slug, statSync(page(slug)).mtimeMs]));
  pages = Object.fromEntries(slugs.map((slug) => [slug, readFileSync(page(slug), 'utf8')]));
  appendFileSync(path.join(root, dirs[1]!, 'docs', 'notes.md'), '\n\nA paragraph added after the first build.\n');
  rebuilt = await build();
}, { timeout: 600_000 });

test('the edited lesson shows the edit after a rebuild with the kept cache; the others do not', () => {
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.match(readFileSync(page('1.2-lesson-2'), 'utf8'), /A paragraph added after the first build\./);
  assert.notEqual(statSync(page('1.2-lesson-2')).mtimeMs, mtimes['1.2-lesson-2']);
  // Byte-equal: highlighting does not depend on the machine's speed (pipeline/site/expressive-code.ts).
  for (const slug of ['1.1-lesson-1', '1.3-lesson-3']) assert.equal(readFileSync(page(slug), 'utf8'), pages[slug], `${slug} changed`);
});
