// Builds the bare project: node bench/bare-astro/build.mjs COURSE OUT CACHE (CACHE kept between
// runs for the "rebuild with caches" figure; remove it for a clean build).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'astro';

const [course, out, cache] = process.argv.slice(2);
process.env.BARE_COURSE = path.resolve(course);
process.env.BARE_ROOT = path.dirname(fileURLToPath(import.meta.url));
process.env.ASTRO_TELEMETRY_DISABLED = '1';
await build({
  root: path.dirname(fileURLToPath(import.meta.url)),
  outDir: path.resolve(out),
  cacheDir: path.join(path.resolve(cache), 'astro'),
  vite: { cacheDir: path.join(path.resolve(cache), 'vite') },
  logLevel: 'error',
});
