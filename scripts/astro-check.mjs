// Type-checks site/ (.astro and .ts) with `astro check`. @astrojs/check needs TypeScript 5 or 6 and
// the project uses 7, so it lives in tools/astro-check/ (installed from its lock file on first use).
// `astro sync` first writes the content collections' types (.astro/types.d.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = `${root}tools/astro-check`;
const run = (command, args, cwd = root) => {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync(`${tools}/node_modules/.bin/astro-check`))
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], tools);
run(process.execPath, [`${root}node_modules/astro/bin/astro.mjs`, 'sync'], root);
run(process.execPath, [
  `${tools}/node_modules/@astrojs/check/bin/astro-check.js`,
  '--root',
  root,
  '--tsconfig',
  'site/tsconfig.json',
  '--minimumFailingSeverity',
  'warning',
]);
