// The search index of a rebuild (pipeline/site/search.ts): kept from the output it replaces only
// when every page is byte-identical and the kept index files are the ones pagefind wrote; pagefind
// itself runs on a few pages in temp folders (no Astro).
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../../cli/testing.ts';
import { indexSite } from './search.ts';

const work = scratchDir('codelabgen-search-');
const out = path.join(work, 'out');
const record = path.join(work, 'search-index.json');

/** Writes the pages into a fresh staging folder, indexes it against `out`, and puts it in place. */
async function build(pages: Record<string, string>): Promise<{ pages: number; kept: boolean }> {
  const staging = path.join(work, 'staging');
  rmSync(staging, { recursive: true, force: true });
  for (const [name, body] of Object.entries(pages)) {
    mkdirSync(path.dirname(path.join(staging, name)), { recursive: true });
    writeFileSync(
      path.join(staging, name),
      `<!doctype html><html lang="en"><head><title>${name}</title></head><body><main data-pagefind-body><h1>${name}</h1><p>${body}</p></main></body></html>`,
    );
  }
  const result = await indexSite(staging, { out, record });
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  return result;
}

const index = () =>
  Object.fromEntries(
    readdirSync(path.join(out, 'pagefind'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [
        path.relative(out, path.join(e.parentPath, e.name)),
        readFileSync(path.join(e.parentPath, e.name), 'base64'),
      ]),
  );
const PAGES = { 'index.html': 'Streams in practice', 'lessons/1.1/index.html': 'Backpressure keeps memory bounded' };

test('kept when no page changed; made again after a page change, a touched or added index file, or a lost record', async () => {
  assert.deepEqual(await build(PAGES), { pages: 2, kept: false });
  const first = index();
  assert.deepEqual(await build(PAGES), { pages: 2, kept: true });
  assert.deepEqual(index(), first);

  assert.deepEqual(
    await build({ ...PAGES, 'lessons/1.1/index.html': 'Backpressure keeps memory low' }),
    { pages: 2, kept: false },
    'a changed page',
  );
  assert.notDeepEqual(index(), first);
  assert.deepEqual(await build(PAGES), { pages: 2, kept: false }, 'back to the first pages');
  assert.deepEqual(index(), first, 'pagefind makes the same index from the same pages');

  const meta = readdirSync(path.join(out, 'pagefind')).find((name) => name.endsWith('.pf_meta'))!;
  writeFileSync(path.join(out, 'pagefind', meta), 'tampered');
  assert.deepEqual(await build(PAGES), { pages: 2, kept: false }, 'a hand-edited index file is never carried over');
  assert.deepEqual(index(), first);

  symlinkSync('/etc/hostname', path.join(out, 'pagefind', 'planted'));
  assert.deepEqual(
    await build(PAGES),
    { pages: 2, kept: false },
    'a symbolic link planted in the index is never carried over',
  );
  assert.ok(!existsSync(path.join(out, 'pagefind', 'planted')));

  assert.deepEqual(await build({ ...PAGES, 'glossary/index.html': 'Terms' }), { pages: 3, kept: false }, 'a page more');
  rmSync(record);
  assert.deepEqual(
    await build({ ...PAGES, 'glossary/index.html': 'Terms' }),
    { pages: 3, kept: false },
    'no record of the earlier index',
  );
});
