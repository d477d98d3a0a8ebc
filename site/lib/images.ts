// Doc images on a lesson page: each file of page.images (image metadata from the lessons
// collection) goes through astro:assets' getImage() — a hashed, resized, re-encoded file in the
// build — and replaces its placeholder in the doc HTML, with its width and height.
import type { ImageMetadata } from 'astro';
import { getImage } from 'astro:assets';
import { IMAGE_PLACEHOLDER } from '../../pipeline/read.ts';
import type { DocView, LeafSegmentView } from './lessons.ts';

export interface PageImage {
  src: string;
  width: number;
  height: number;
}

/** Twice the 40rem text column: sharp on high-density screens, no larger. */
const MAX_WIDTH = 1360;

/** The optimized file of each doc image, by key. */
export async function optimizeImages(images: { key: string; src: ImageMetadata }[]): Promise<Map<string, PageImage>> {
  const done = await Promise.all(images.map(async ({ key, src }) => {
    const vector = src.format === 'svg';
    const image = await getImage({ src, ...(vector || src.width <= MAX_WIDTH ? {} : { width: MAX_WIDTH }) });
    const width = Number(image.attributes.width ?? src.width);
    const height = Number(image.attributes.height ?? src.height);
    return [key, { src: image.src, width, height }] as const;
  }));
  return new Map(done);
}

const PLACEHOLDER = new RegExp(`<img src="${IMAGE_PLACEHOLDER.replace(/[/.]/g, '\\$&')}([0-9a-f]+)"`, 'g');

/** The doc with each image placeholder replaced by its optimized file (src, width, height). */
export function withImages<T extends DocView | null>(doc: T, images: Map<string, PageImage>): T {
  if (doc === null || images.size === 0) return doc;
  const html = (text: string) => text.replace(PLACEHOLDER, (whole, key: string) => {
    const image = images.get(key);
    return image ? `<img src="${image.src}" width="${image.width}" height="${image.height}"` : whole;
  });
  const leaf = (s: LeafSegmentView): LeafSegmentView => (s.kind === 'html' ? { ...s, html: html(s.html) } : s);
  return { ...doc, segments: doc.segments.map((s) => (s.kind === 'group' ? { ...s, parts: s.parts.map(leaf) } : leaf(s))) };
}
