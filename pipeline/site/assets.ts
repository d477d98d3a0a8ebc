// The images config.yaml's site: section names (logo, favicon), read from the course folder as data
// URIs so they work under any base; a missing, oversized or unknown file is a DataFileError naming the field.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { DataFileError, type SiteConfig } from '../../content-schemas/index.ts';

const CONFIG = '.codelabgen/config.yaml';
const MIME: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.ico': 'image/x-icon' };

function inline(root: string, file: string, field: string, maxBytes: number, types: string[]): string {
  const refuse = (problem: string) => new DataFileError(CONFIG, [`site.${field}: ${problem}`]);
  const type = path.extname(file).toLowerCase();
  if (!types.includes(type)) throw refuse(`${file} is not one of ${types.join(', ')}`);
  const abs = path.resolve(root, file);
  if (!abs.startsWith(path.resolve(root) + path.sep)) throw refuse(`${file} is outside the course folder`);
  let size: number;
  try {
    size = statSync(abs).size;
  } catch {
    throw refuse(`no such file ${file} in the course folder`);
  }
  if (size > maxBytes) throw refuse(`${file} is ${size} bytes, more than ${maxBytes}`);
  return `data:${MIME[type]};base64,${readFileSync(abs).toString('base64')}`;
}

/** The logo and favicon (default: the logo) as data URIs, null when not set. */
export function readSiteAssets(root: string, site: SiteConfig): { logo: string | null; favicon: string | null } {
  const logo = site.logo === undefined ? null : inline(root, site.logo, 'logo', 200_000, ['.svg', '.png', '.jpg', '.jpeg', '.webp']);
  const favicon = site.favicon === undefined ? logo : inline(root, site.favicon, 'favicon', 100_000, ['.svg', '.png', '.ico']);
  return { logo, favicon };
}
