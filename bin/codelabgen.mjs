#!/usr/bin/env node
// codelabgen's launcher: checks the Node version, turns on the compile cache, loads the bundle.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`error: codelabgen needs Node.js >= 22.12; this is ${process.version}\nhint: install Node 22 (e.g. npm i --prefix .cache/node22 node@22) and put it first on PATH\n`);
  process.exit(2);
}
const { enableCompileCache } = await import('node:module');
try {
  enableCompileCache?.();
} catch {
  // the cache is an optimization only
}
await import('../dist/main.mjs');
