// The images config.yaml's site: section names (logo, favicon), read from the course folder as data
// URIs so they work under any base. Like every path from a data file, each must resolve (through
// symlinks) inside the course and be a regular file under its size limit; else a DataFileError
// naming the field.
import path from 'node:path';
import { DataFileError, readRegularFile, UnreadableFileError, type SiteConfig } from '../../content-schemas/index.ts';
import { errorCode } from '../course/errors.ts';
import { isInside, realPathOf } from '../course/inside.ts';
import { VCS_FOLDERS } from '../course/vcs.ts';

const CONFIG = '.codelabgen/config.yaml';
const MIME: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

function inline(root: string, file: string, field: string, maxBytes: number, types: string[]): string {
  const refuse = (problem: string) => new DataFileError(CONFIG, [`site.${field}: ${problem}`]);
  const type = path.extname(file).toLowerCase();
  if (!types.includes(type)) throw refuse(`${file} is not one of ${types.join(', ')}`);
  if (file.includes('\0') || path.isAbsolute(file) || file.split(/[\\/]/).includes('..'))
    throw refuse(`${file} must be a path relative to the course folder, without ".." segments`);
  const real = realPathOf(path.resolve(root, file));
  if (!isInside(real, root))
    throw refuse(
      `${file} resolves outside the course folder (to ${real}); the site never publishes files from outside the course`,
    );
  // Inside the course too, a symlink (chain) must end at an image: `logo.svg -> .git/config` would
  // publish the remote's token, `-> .codelabgen/...` the course's state.
  const target = path.relative(realPathOf(root), real).split(path.sep).join('/');
  const hidden = [...VCS_FOLDERS, '.codelabgen'].find((dir) => isInside(real, path.join(root, dir)));
  if (hidden !== undefined)
    throw refuse(`${file} resolves into ${hidden}/; the site publishes no file of the course's state or history`);
  const realType = path.extname(real).toLowerCase();
  if (!types.includes(realType)) throw refuse(`${file} resolves to ${target}, not an image file (${types.join(', ')})`);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(real, maxBytes, { noFollow: true });
  } catch (error) {
    if (error instanceof UnreadableFileError) throw refuse(`${file} ${error.reason}`);
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR')
      throw refuse(`no such file ${file} in the course folder`);
    throw error;
  }
  return `data:${MIME[realType]};base64,${bytes.toString('base64')}`;
}

/** The logo and favicon (default: the logo) as data URIs, null when not set. */
export function readSiteAssets(root: string, site: SiteConfig): { logo: string | null; favicon: string | null } {
  const logo =
    site.logo === undefined
      ? null
      : inline(root, site.logo, 'logo', 200_000, ['.svg', '.png', '.jpg', '.jpeg', '.webp']);
  const favicon =
    site.favicon === undefined ? logo : inline(root, site.favicon, 'favicon', 100_000, ['.svg', '.png', '.ico']);
  return { logo, favicon };
}
