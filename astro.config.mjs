// Astro config for working on the site itself (`npx astro dev` in the repo): the example course in
// drafts mode through the codelabgen integration. `codelabgen site build|dev|preview` do not read
// this file: they run the same integration with an inline config (pipeline/site/worker.ts).
import { defineConfig } from 'astro/config';
import codelabgen from './pipeline/site/integration.ts';

export default defineConfig({
  srcDir: './site',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  integrations: [codelabgen({ course: './examples/node-streams', drafts: true })],
});
