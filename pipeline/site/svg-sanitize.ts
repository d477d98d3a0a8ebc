// The SVG files of a build's assets folder are sanitized in place (docs/security.md): a doc image is served from
// the site's own origin, and an SVG opened there runs its scripts. DOMPurify's SVG profile (on a
// jsdom window, loaded only when the output holds an SVG) drops scripts, event handlers,
// foreignObject and animation; then every reference that leaves the file (href, url(), @import)
// is removed, so an image can neither run code nor load anything.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** A url(...) whose target is not a fragment of the same file. */
const EXTERNAL_URL = /url\(\s*['"]?\s*(?!#)/i;
/** Embedded raster images are kept: they cannot run code or load anything. */
const EMBEDDED_RASTER = /^\s*data:image\/(png|jpe?g|gif|webp|avif);/i;

type Purify = { sanitize(dirty: string, config: object): unknown };
interface Sanitizer {
  purify: Purify;
  serialize(node: Element): string;
}

async function loadSanitizer(): Promise<Sanitizer> {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  const window = new JSDOM('').window;
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]) as unknown as Purify;
  const serializer = new window.XMLSerializer();
  return { purify, serialize: (node) => serializer.serializeToString(node) };
}

/** Removes what points outside the file: hrefs other than #fragments, external url()s, @import. */
function dropExternalReferences(svg: Element): void {
  for (const element of [svg, ...svg.querySelectorAll('*')]) {
    const text = element.textContent ?? '';
    if (element.localName === 'style' && (EXTERNAL_URL.test(text) || /@import/i.test(text))) {
      element.remove();
      continue;
    }
    for (const attribute of [...element.attributes]) {
      const value = attribute.value;
      const isHref = attribute.localName === 'href';
      const allowed = isHref
        ? value.trim().startsWith('#') || (element.localName === 'image' && EMBEDDED_RASTER.test(value))
        : !EXTERNAL_URL.test(value);
      if (!allowed) element.removeAttributeNode(attribute);
    }
  }
}

/** The sanitized text of an SVG file: its outermost <svg> element, or an empty SVG when there is none. */
export function sanitizeSvg(text: string, sanitizer: Sanitizer): string {
  const body = sanitizer.purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    RETURN_DOM: true,
  }) as Element;
  const svg = [...body.children].find((child) => child.localName === 'svg' && child.namespaceURI === SVG_NS);
  if (svg === undefined) return `<svg xmlns="${SVG_NS}"/>\n`;
  dropExternalReferences(svg);
  return `${sanitizer.serialize(svg)}\n`;
}

/** Every .svg file under `dir` (none when it does not exist). */
function svgFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.svg'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Sanitizes every SVG file under `dir` (a build's assets folder, `_astro/`) in place; returns how many there were. */
export async function sanitizeSvgFiles(dir: string): Promise<number> {
  const files = svgFiles(dir);
  if (files.length === 0) return 0;
  const sanitizer = await loadSanitizer();
  for (const file of files) writeFileSync(file, sanitizeSvg(readFileSync(file, 'utf8'), sanitizer));
  return files.length;
}

export const loadSvgSanitizer = loadSanitizer;
