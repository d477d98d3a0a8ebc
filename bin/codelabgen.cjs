#!/usr/bin/env node
// codelabgen's launcher: checks the Node version (re-running itself with the repo's bootstrapped
// Node 22 when the machine's is older), turns on the compile cache, loads the bundle: for the state
// commands of cli/state-main.ts the one file dist/state.cjs, for any other command dist/main.mjs.
// CommonJS, like dist/state.cjs: a state command never starts Node's ES module loader
// (docs/performance.md).
'use strict';
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  const { existsSync } = require('node:fs');
  const { spawnSync } = require('node:child_process');
  const node22 = require('node:path').join(__dirname, '..', '.cache', 'node22', 'node_modules', '.bin', 'node');
  if (existsSync(node22)) {
    const result = spawnSync(node22, [__filename, ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(result.status ?? 3);
  }
  process.stderr.write(`error: codelabgen needs Node.js >= 22.12; this is ${process.version}\nhint: install it with "npm i --prefix .cache/node22 node@22" in the codelabgen folder, or use a Node 22 installer\n`);
  process.exit(2);
}
try {
  require('node:module').enableCompileCache?.();
} catch {
  // the cache is an optimization only
}
// `state <word>` after any leading --course DIR. cli/state-main.ts hands a command line it does not
// run to dist/main.mjs, so this choice decides only how much is loaded.
const args = process.argv.slice(2);
while (args[0] === '--course' || args[0]?.startsWith('--course=')) args.splice(0, args[0] === '--course' ? 2 : 1);
if (args[0] === 'state' && /^(?:show|next|log|set|fail|block|unblock|stale)$/.test(args[1] ?? '')) require('../dist/state.cjs');
else import('../dist/main.mjs');
