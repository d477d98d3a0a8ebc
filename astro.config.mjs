// Astro config of the course site. `codelabgen site build|dev|preview` runs Astro through its
// programmatic API with this file, `site/` as the source folder and the course handed over in
// $CODELABGEN_SITE (see pipeline/site/build.ts); base, site, outDir and cacheDir come inline.
import { defineConfig } from 'astro/config';
import expressiveCode from 'astro-expressive-code';
import sitemap from '@astrojs/sitemap';

const withSitemap = process.env.CODELABGEN_SITE_SITEMAP === '1';

export default defineConfig({
  srcDir: './site',
  publicDir: process.env.CODELABGEN_SITE_PUBLIC || './site/public',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  integrations: [expressiveCode(), ...(withSitemap ? [sitemap()] : [])],
  vite: { build: { chunkSizeWarningLimit: 4000 }, logLevel: 'error' },
});
