// Builds what the browser tests look at (the demo course and its two sites, global-setup.ts) into
// DIR ahead of time, so that `CODELABGEN_E2E_DIR=DIR playwright test` only serves them.
// Usage: node e2e/prepare.ts DIR (DIR must not hold finished builds yet).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildE2eSites, e2eLocations } from './global-setup.ts';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: node e2e/prepare.ts DIR\n');
  process.exit(2);
}
if (existsSync(path.join(e2eLocations(path.resolve(dir)).baseSite, 'index.html'))) {
  process.stderr.write(`error: ${dir} already holds e2e builds; delete it or pick a new folder\n`);
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
buildE2eSites(path.resolve(dir));
