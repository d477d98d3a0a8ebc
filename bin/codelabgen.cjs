#!/usr/bin/env node
// codelabgen's launcher: checks the Node version (re-running itself with the repo's bootstrapped
// Node 22 when the machine's is older), loads the bundle: for the state commands of
// cli/state-main.ts the one file dist/state.cjs with a V8 code cache of its own, for any other
// command dist/main.mjs with Node's compile cache on. Both caches live in a folder of this user
// (codeCacheFolder). CommonJS, like dist/state.cjs: a state command never starts Node's ES module
// loader, nor loads node:module (docs/performance.md).
'use strict';
// The floor is package.json's engines.node (cli/node-floor.test.ts keeps them the same).
const NODE_FLOOR = [22, 19];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor < NODE_FLOOR[1])) {
  const { existsSync } = require('node:fs');
  const { spawnSync } = require('node:child_process');
  const node22 = require('node:path').join(__dirname, '..', '.cache', 'node22', 'node_modules', '.bin', 'node');
  if (existsSync(node22)) {
    const result = spawnSync(node22, [__filename, ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(result.status ?? 3);
  }
  tooOldNode(
    `codelabgen needs Node.js ${NODE_FLOOR.join('.')} or later; this is ${process.version} (${process.execPath})`,
  );
} else launch();

/** Runs the command from the bundle that holds it. */
function launch() {
  // One of dist/state.cjs's commands after any leading --course DIR: dist/state.cjs runs the command
  // line when it is one of its commands (cli/state-main.ts), otherwise dist/main.mjs does, so this
  // choice only decides how much is loaded.
  const args = process.argv.slice(2);
  while (args[0] === '--course' || args[0]?.startsWith('--course=')) args.splice(0, args[0] === '--course' ? 2 : 1);
  // Generated from the state commands' registry (cli/commands-state.ts) by `npm run docs`;
  // cli/docs.test.ts fails when it differs.
  const STATE_BUNDLE_COMMANDS = [
    'state show',
    'state log',
    'state phase',
    'state set',
    'state fail',
    'state block',
    'state unblock',
    'state stale',
    'state next',
    'state task start',
    'state task heartbeat',
    'state task done',
    'state task fail',
    'state task reset',
    'state task list',
  ];
  const command = [3, 2]
    .map((count) => args.slice(0, count).join(' '))
    .find((words) => STATE_BUNDLE_COMMANDS.includes(words));
  if (command !== undefined && loadStateBundle(command.replaceAll(' ', '-')).runStateCommand()) return;
  const folder = codeCacheFolder();
  try {
    // Node's compile cache for dist/main.mjs and its chunks, in the same folder of this user (Node's
    // default is a folder of os.tmpdir() that any user of the machine may have made first).
    if (folder !== null)
      require('node:module').enableCompileCache?.(process.env.NODE_COMPILE_CACHE ? undefined : folder);
  } catch {
    // the cache is an optimization only
  }
  import('../dist/main.mjs');
}

/**
 * The folder of both code caches, or null for none: $NODE_COMPILE_CACHE when set (Node's own
 * setting), else $XDG_CACHE_HOME/codelabgen/code-cache or ~/.cache/codelabgen/code-cache; none with
 * NODE_DISABLE_COMPILE_CACHE, like Node's. A cache is compiled code this process runs, so the folder
 * must be a real folder of this user that no one else may write, in a parent others may not write
 * (as the site's caches, pipeline/site/cache-root.ts): anything else and no cache is read or written.
 */
function codeCacheFolder() {
  if (codeCacheFolder.found === undefined) codeCacheFolder.found = findCodeCacheFolder();
  return codeCacheFolder.found;
}

function findCodeCacheFolder() {
  const env = process.env;
  if (env.NODE_DISABLE_COMPILE_CACHE) return null;
  const path = require('node:path');
  let folder = env.NODE_COMPILE_CACHE;
  if (!folder) {
    const base = path.isAbsolute(env.XDG_CACHE_HOME ?? '')
      ? env.XDG_CACHE_HOME
      : path.isAbsolute(env.HOME ?? '')
        ? path.join(env.HOME, '.cache')
        : null;
    if (base === null) return null;
    folder = path.join(base, 'codelabgen', 'code-cache');
  }
  folder = path.resolve(folder);
  const fs = require('node:fs');
  const uid = process.getuid?.();
  const own = (stats) => stats !== undefined && stats.isDirectory() && (uid === undefined || stats.uid === uid);
  try {
    const stats = () => fs.lstatSync(folder, { throwIfNoEntry: false });
    if (!own(stats())) fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    // The parent may be writable by all when only its owners may rename what is in it (sticky, as /tmp).
    const parent = fs.statSync(path.dirname(folder));
    const parentKept = (parent.mode & 0o002) === 0 || (parent.mode & 0o1000) !== 0;
    return own(stats()) && (stats().mode & 0o022) === 0 && parentKept ? folder : null;
  } catch {
    return null; // not this user's, or read-only: run without a cache
  }
}

/**
 * Loads dist/state.cjs as require() would, with a V8 code cache of its own per command. Node's
 * compile cache keeps only what V8 compiled before the file ran (its top level); the functions a
 * command calls are compiled on every run. This cache is taken when the command ends, so it holds
 * them too (docs/performance.md). It sits in codeCacheFolder(), under codelabgen/, one file per
 * install, Node version and command, which starts with the bundle's identity (inode, size, mtime);
 * one for another bundle, one V8 rejects (other V8 flags) or none is replaced when a run of the
 * command exits 0, by temp and rename, and so is one fewer than CACHE_WRITES runs wrote; caches
 * unwritten for a week are dropped then.
 */
function loadStateBundle(command) {
  const path = require('node:path');
  const file = path.join(__dirname, '..', 'dist', 'state.cjs');
  const folder = codeCacheFolder();
  if (folder === null) return require(file);
  const fs = require('node:fs');
  const vm = require('node:vm');
  const { ino, size, mtimeMs } = fs.statSync(file);
  const identity = Buffer.from(`${ino}:${size}:${mtimeMs}\n`);
  const cacheFile = path.join(folder, 'codelabgen', `${command}-${process.version}-${fnv1a(file)}`);
  // After the identity, one byte: how many runs have written the cache. A run compiles only the
  // functions its own path calls, so the first CACHE_WRITES runs that exit 0 each write it again,
  // with what the cache held and what they compiled: a cache is not frozen with a first run's path.
  const CACHE_WRITES = 3;
  let cachedData;
  let writes = 0;
  try {
    const bytes = fs.readFileSync(cacheFile);
    if (bytes.length > identity.length && bytes.subarray(0, identity.length).equals(identity)) {
      writes = bytes[identity.length];
      cachedData = bytes.subarray(identity.length + 1);
    }
  } catch {
    // no cache yet
  }
  // esbuild writes ASCII only (non-ASCII characters escaped), which latin1 reads as UTF-8 would, faster.
  const source = `(function (exports, require, module, __filename, __dirname) { ${fs.readFileSync(file, 'latin1')}\n});`;
  const script = new vm.Script(source, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected || writes < CACHE_WRITES) {
    const written = cachedData === undefined || script.cachedDataRejected ? 1 : writes + 1;
    process.once('exit', (code) => {
      if (code !== 0) return; // a refused command ran little of its code: leave the cache to a run that works
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
        fs.writeFileSync(temp, Buffer.concat([identity, Buffer.from([written]), script.createCachedData()]));
        fs.renameSync(temp, cacheFile);
        // Installs come and go (a test's temp copy, an npx run): drop caches unwritten for a week.
        // One still in use is written again on its next run.
        for (const name of fs.readdirSync(path.dirname(cacheFile))) {
          const other = path.join(path.dirname(cacheFile), name);
          if (Date.now() - fs.statSync(other).mtimeMs > 7 * 24 * 3600_000) fs.rmSync(other, { force: true });
        }
      } catch {
        fs.rmSync(temp, { force: true });
      }
    });
  }
  const module = { exports: {} };
  // The launcher's own require: the bundle requires only Node's modules (its lazily loaded dist/
  // entries go through a require made for dist/, content-schemas/lazy-load.ts), and
  // Module.createRequire would load node:module and with it the ES module loader's code.
  script.runInThisContext().call(module.exports, module.exports, require, module, file, path.dirname(file));
  return module.exports;
}

/** A short hex name for a path (FNV-1a, 32 bits). */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Says that this Node is too old, on stderr, and exits 2. Run as an MCP server (`codelabgen mcp`),
 * it first answers the host's first request with that message as a JSON-RPC error, so the host
 * shows it (a stdio host shows "Connection closed" for a server that only exits).
 */
function tooOldNode(message) {
  const hint =
    'install Node.js 22 LTS (https://nodejs.org/en/download, or: nvm install 22), then run the same command again';
  process.stderr.write(`error: ${message}\nhint: ${hint}\n`);
  const args = process.argv.slice(2).filter((arg, i, all) => arg !== '--course' && all[i - 1] !== '--course');
  if (args[0] !== 'mcp') process.exit(2);
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    const end = buffer.indexOf('\n');
    if (end === -1) return;
    let id = null;
    try {
      id = JSON.parse(buffer.slice(0, end)).id ?? null;
    } catch {
      // not JSON-RPC: the error answers no request
    }
    const error = { code: -32603, message: `${message}; ${hint}` };
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`, () => process.exit(2));
  });
  process.stdin.on('end', () => process.exit(2));
}
