// boundCodeCache (scripts/code-cache-bound.ts): the test code cache is removed once it outgrows its
// bound, and kept (every entry) below it; a missing folder is no error.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../cli/testing.ts';
import { boundCodeCache, folderBytes } from './code-cache-bound.ts';

test('the cache goes past its bound, stays under it, and a missing one is no error', () => {
  const folder = path.join(scratchDir('codelabgen-code-cache-'), 'cache');
  mkdirSync(path.join(folder, 'stripped'), { recursive: true });
  mkdirSync(path.join(folder, 'compile', 'v22'), { recursive: true });
  writeFileSync(path.join(folder, 'stripped', 'a.js'), 'x'.repeat(600));
  writeFileSync(path.join(folder, 'compile', 'v22', 'b'), 'x'.repeat(500));
  symlinkSync('/usr', path.join(folder, 'link')); // not followed, not counted
  assert.equal(folderBytes(folder), 1100);
  assert.equal(boundCodeCache(folder, 1100), false);
  assert.ok(existsSync(path.join(folder, 'stripped', 'a.js')), 'an entry of a cache within its bound was removed');
  assert.equal(boundCodeCache(folder, 1099), true);
  assert.equal(existsSync(folder), false, 'a cache over its bound was kept');
  assert.equal(boundCodeCache(folder, 0), false);
});
