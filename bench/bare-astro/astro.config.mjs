// The framework floor: a bare Astro project (no codelabgen features) that builds the same generated
// lesson content (readalong, notes, code files, diagram source) as `codelabgen site build`.
// Course folder from $BARE_COURSE; build.mjs sets the output and cache folders.
import { defineConfig } from 'astro/config';

export default defineConfig({
  logLevel: 'warn',
});
