#!/usr/bin/env node
// codelabgen's launcher: checks the Node version (re-running itself with the repo's bootstrapped
// Node 22 when the machine's is older), turns on the compile cache, loads the bundle.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  const { existsSync } = await import('node:fs');
  const { spawnSync } = await import('node:child_process');
  const node22 = new URL('../.cache/node22/node_modules/.bin/node', import.meta.url).pathname;
  if (existsSync(node22)) {
    const result = spawnSync(node22, [new URL(import.meta.url).pathname, ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(result.status ?? 3);
  }
  process.stderr.write(`error: codelabgen needs Node.js >= 22.12; this is ${process.version}\nhint: install it with "npm i --prefix .cache/node22 node@22" in the codelabgen folder, or use a Node 22 installer\n`);
  process.exit(2);
}
const { enableCompileCache } = await import('node:module');
try {
  enableCompileCache?.();
} catch {
  // the cache is an optimization only
}
await import('../dist/main.mjs');
