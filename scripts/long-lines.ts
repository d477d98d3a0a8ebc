// The line-length rule for hand-written code (docs/testing.md): no line over MAX_LINE characters in a
// file Biome checks. Which files: the repository's tracked code files minus biome.json's `!` excludes
// and generated files. Read by scripts/line-length.ts (the check) and scripts/wrap-long-lines.ts (the codemod).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const MAX_LINE = 160;

/** Hand-written code: what Biome formats among these, written by people rather than a generator. */
const CODE_FILE = /\.(ts|mts|cts|js|mjs|cjs|astro|css)$/;
const GENERATED_FILE = /(^|\/)[^/]*\.generated\.[^/]+$/;

export interface LongLine {
  file: string; // relative to the repository root, with forward slashes
  line: number; // 1-based
  length: number; // characters (UTF-16 code units, as an editor's column count)
}

/** biome.json's `files.includes` entries that start with `!`, as matchers of repository-relative paths. */
export function biomeExcludes(root: string): RegExp[] {
  const config = JSON.parse(readFileSync(path.join(root, 'biome.json'), 'utf8')) as {
    files?: { includes?: string[] };
  };
  return (config.files?.includes ?? [])
    .filter((entry) => entry.startsWith('!'))
    .map((entry) => globToRegExp(entry.slice(1)));
}

/** A Biome glob (`**` any folders, `*` any name part) matching the path itself or anything under it. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**/', i)) {
      source += '(?:[^/]+/)*';
      i += 2;
    } else if (glob[i] === '*') source += '[^/]*';
    else source += glob[i]!.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}(?:/.*)?$`);
}

/** The hand-written code files of the repository at `root` (tracked or new, not ignored), sorted. */
export function handWrittenFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const excludes = biomeExcludes(root);
  return [...new Set(listed.split('\0'))]
    .filter((file) => CODE_FILE.test(file) && !GENERATED_FILE.test(file))
    .filter((file) => !excludes.some((exclude) => exclude.test(file)))
    .filter((file) => existsSync(path.join(root, file))) // a tracked file deleted in the work tree
    .sort();
}

/** The lines of `text` over MAX_LINE characters, as 1-based line numbers with their lengths. */
export function longLinesOf(text: string): { line: number; length: number }[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: index + 1, length: line.replace(/\r$/, '').length }))
    .filter(({ length }) => length > MAX_LINE);
}

/** Every line over MAX_LINE in the given files (default: every hand-written file) of the repository. */
export function findLongLines(root: string, files: string[] = handWrittenFiles(root)): LongLine[] {
  return files.flatMap((file) =>
    longLinesOf(readFileSync(path.join(root, file), 'utf8')).map((found) => ({ file, ...found })),
  );
}
