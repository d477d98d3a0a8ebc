// The search index: pagefind's Node API over the built pages (only `data-pagefind-body` parts).
// Code line numbers, copy buttons and heading anchor links are left out of the indexed text.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Code listings are left out: results quote prose, and a term that only code mentions finds nothing.
const EXCLUDE = ['.expressive-code', '.heading-anchor'];

/** An index made earlier: the output folder it went into, and a record of what it was made from. */
export interface PreviousIndex {
  /** The output folder this build replaces (its pagefind/ folder is the earlier index). */
  out: string;
  /** Where the record of the earlier index is kept (the build's cache folder). */
  record: string;
}

interface IndexRecord {
  out: string;
  /** The pages and settings the index was made from. */
  input: string;
  /** The index's own files (names and bytes), as written. */
  files: string;
  pages: number;
}

/**
 * Indexes the pages of `outDir`. When `previous` holds an index made from the same pages, byte for
 * byte, with the same pagefind and settings (a rebuild that changed no page), and its files are
 * still the ones pagefind wrote, that index is copied instead: pagefind reads nothing else, so it
 * would write the same files.
 */
export async function indexSite(outDir: string, previous?: PreviousIndex): Promise<{ pages: number; kept: boolean }> {
  const input = previous ? pagesDigest(outDir) : '';
  const record = previous ? readRecord(previous.record) : null;
  const earlier = previous ? path.join(previous.out, 'pagefind') : '';
  if (
    previous &&
    record !== null &&
    record.out === path.resolve(previous.out) &&
    record.input === input &&
    isPlainFolder(earlier) &&
    filesDigest(earlier) === record.files
  ) {
    cpSync(earlier, path.join(outDir, 'pagefind'), { recursive: true });
    return { pages: record.pages, kept: true };
  }
  const pages = await runPagefind(outDir);
  if (previous)
    writeFileSync(
      previous.record,
      JSON.stringify({
        out: path.resolve(previous.out),
        input,
        files: filesDigest(path.join(outDir, 'pagefind')),
        pages,
      } satisfies IndexRecord),
    );
  return { pages, kept: false };
}

async function runPagefind(outDir: string): Promise<number> {
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({ excludeSelectors: EXCLUDE });
  if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
  try {
    const added = await index.addDirectory({ path: outDir });
    if (added.errors.length > 0) throw new Error(`pagefind: ${added.errors.join('; ')}`);
    const written = await index.writeFiles({ outputPath: `${outDir}/pagefind` });
    if (written.errors.length > 0) throw new Error(`pagefind: ${written.errors.join('; ')}`);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}

function readRecord(file: string): IndexRecord | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as IndexRecord;
  } catch {
    return null; // none yet, or unreadable: index
  }
}

/** Every HTML page of the folder (path and bytes), pagefind's version and the settings. */
function pagesDigest(outDir: string): string {
  const hash = createHash('sha256');
  hash.update(`pagefind ${pagefindVersion()}\0${JSON.stringify(EXCLUDE)}\0`);
  const pages = readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.relative(outDir, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const page of pages)
    hash
      .update(`${page}\0`)
      .update(readFileSync(path.join(outDir, page)))
      .update('\0');
  return hash.digest('hex');
}

/** pagefind's version, from the package.json above its entry (its exports list neither the file nor a require entry). */
function pagefindVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.resolve('pagefind')));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return (
    (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown'
  );
}

/** A folder itself, not a symbolic link to one. */
function isPlainFolder(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Names and bytes of the files under `dir`; anything else there (a symbolic link, a socket) by name and kind, so it never matches an index pagefind wrote. */
function filesDigest(dir: string): string {
  const hash = createHash('sha256');
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => ({ entry, file: path.join(entry.parentPath, entry.name) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const { entry, file } of entries) {
    if (entry.isFile())
      hash
        .update(`${path.relative(dir, file)}\0`)
        .update(readFileSync(file))
        .update('\0');
    else if (!entry.isDirectory()) hash.update(`${path.relative(dir, file)}\0not a file\0`);
  }
  return hash.digest('hex');
}
