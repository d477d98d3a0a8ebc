// The line-length check of `npm run lint` (after `biome check .`, which has no such rule): fails naming
// file:line for every hand-written line over MAX_LINE characters (scripts/long-lines.ts says which files).
// Usage: node scripts/line-length.ts [--root DIR]   exit 0 when none, 1 when some (listed on stderr).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findLongLines, MAX_LINE } from './long-lines.ts';

function main(args: string[]): number {
  const rootAt = args.indexOf('--root');
  const root =
    rootAt >= 0 && args[rootAt + 1] !== undefined
      ? path.resolve(args[rootAt + 1]!)
      : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const long = findLongLines(root);
  if (long.length === 0) return 0;
  for (const found of long) {
    console.error(`${found.file}:${found.line}: line of ${found.length} characters, over ${MAX_LINE}`);
  }
  console.error(
    `error: ${long.length} hand-written line${long.length === 1 ? '' : 's'} over ${MAX_LINE} characters; ` +
      'split them (node scripts/wrap-long-lines.ts splits long strings, regexes and comments)',
  );
  return 1;
}

process.exitCode = main(process.argv.slice(2));
