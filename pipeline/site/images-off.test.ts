// The swap that keeps astro:assets out of a build whose lessons show no doc image
// (pipeline/site/integration.ts imagesOffPlugin): site dev and builds with images keep the real module.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { packageRoot } from './package-root.ts';
import { imagesOffPlugin } from './integration.ts';
import type { Prepared } from './prepare.ts';

const real = path.join(packageRoot(), 'site', 'lib', 'image-files.ts');
const off = path.join(packageRoot(), 'site', 'lib', 'image-files-off.ts');
const importer = path.join(packageRoot(), 'site', 'routes', 'lessons', '[lesson].astro');
const vite = { resolve: async (source: string) => (source.endsWith('image-files.ts') ? { id: real } : { id: source }) };
const withImages = (images: number) => ({ images }) as Prepared;

test('a build without doc images gets image-files-off.ts; dev (nothing prepared) and builds with images the real one', async () => {
  const resolve = (prepared: Prepared | null, source = '../../lib/image-files.ts') =>
    imagesOffPlugin(() => prepared).resolveId.call(vite, source, importer, {});
  assert.equal(await resolve(withImages(0)), off);
  assert.equal(await resolve(withImages(2)), null);
  assert.equal(await resolve(null), null);
  assert.equal(await resolve(withImages(0), '../../lib/images.ts'), null, 'other modules are left alone');
});
