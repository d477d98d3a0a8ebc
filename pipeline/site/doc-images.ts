// Doc images reach astro:assets as bytes, never as course paths (docs/security.md "Specifiers"):
// each image resolved in a doc (doc-links.ts) is copied by its content hash into the build's own
// stage folder, and only that copy's path, `<stage>/<sha256>/<name>.<ext>`, is handed to image()
// (<name>: the file's base name reduced to [A-Za-z0-9_-], kept for the published file's name). A
// name from the course (`fig.mjs?v=2.png`) can then never be read by Vite as a module and a query.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../../content-schemas/fast.ts';
import { DocRefError, MAX_IMAGE_BYTES, type DocImage } from './doc-links.ts';

/** The stage folder of a build whose Astro cache folder is `cacheDir`. */
export function imageStageDir(cacheDir: string): string {
  return path.join(cacheDir, 'codelabgen-doc-images');
}

/** The base name of `file` without its extension, reduced to [A-Za-z0-9_-] (at most 40), else "image". */
export function stagedName(file: string): string {
  const base = path.basename(file).replace(/\.[^.]*$/, '');
  return (
    base
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'image'
  );
}

/**
 * The path of `image`'s staged copy in `stageDir`, made when missing: the bytes read again through
 * the hardened reader (no-follow, regular file, size-capped) must still hash to the image's key.
 */
export function stageDocImage(stageDir: string, image: DocImage): string {
  const staged = path.join(stageDir, image.key, `${stagedName(image.path)}.${image.ext}`);
  try {
    if (lstatSync(staged).isFile()) return staged;
  } catch {
    // not staged yet: below
  }
  const bytes = readRegularFile(image.path, MAX_IMAGE_BYTES, { noFollow: true });
  if (createHash('sha256').update(bytes).digest('hex').slice(0, 16) !== image.key)
    throw new DocRefError(`image ${image.path}: changed while the site was built; build again`);
  mkdirSync(path.dirname(staged), { recursive: true, mode: 0o700 });
  const temporary = `${staged}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes, { mode: 0o600 });
  renameSync(temporary, staged);
  return staged;
}
