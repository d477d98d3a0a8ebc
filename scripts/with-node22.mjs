// Runs a command with Node >= 22.19 first on PATH (the floor: undici, under astro, needs 22.19; the
// repository's .ts scripts need type stripping, on by default from 22.18). On a machine whose node is older (Node 20 is
// common), it installs the npm package node@22 (which carries the binary) into .cache/node22 once.
// Plain JavaScript on purpose: it must run on the old node. Usage: node scripts/with-node22.mjs CMD ARGS...
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
const modern = major > 22 || (major === 22 && minor >= 19);
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/with-node22.mjs COMMAND [ARGS...]\n');
  process.exit(2);
}

let env = process.env;
if (!modern) {
  const prefix = path.join(repo, '.cache', 'node22');
  const bin = path.join(prefix, 'node_modules', '.bin');
  if (!existsSync(path.join(bin, 'node'))) {
    process.stderr.write(
      `codelabgen: node ${process.version} is older than 22.19; installing node@22 into .cache/node22 (once)\n`,
    );
    const install = spawnSync(
      'npm',
      ['i', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, 'node@22'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (install.status !== 0) process.exit(install.status ?? 1);
  }
  env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
}
const result = spawnSync(command, args, { stdio: 'inherit', env });
if (result.error) {
  process.stderr.write(`error: ${command}: ${result.error.message}\n`);
  process.exit(2);
}
process.exit(result.status ?? (result.signal ? 128 : 1));
