// Doc images on a lesson page: each file of page.images (image metadata from the lessons
// collection) goes through astro:assets' getImage() (site/lib/image-files.ts) — a hashed, resized,
// re-encoded file in the build — and replaces its placeholder in the doc HTML, with its width and height.
import { IMAGE_PLACEHOLDER } from '../../pipeline/read/index.ts';
import type { DocView, LeafSegmentView } from './lessons.ts';

export interface PageImage {
  src: string;
  width: number;
  height: number;
}

const PLACEHOLDER = new RegExp(`<img src="${IMAGE_PLACEHOLDER.replace(/[/.]/g, '\\$&')}([0-9a-f]+)"`, 'g');

/** The doc with each image placeholder replaced by its optimized file (src, width, height). */
export function withImages<T extends DocView | null>(doc: T, images: Map<string, PageImage>): T {
  if (doc === null || images.size === 0) return doc;
  const html = (text: string) =>
    text.replace(PLACEHOLDER, (whole, key: string) => {
      const image = images.get(key);
      return image ? `<img src="${image.src}" width="${image.width}" height="${image.height}"` : whole;
    });
  const leaf = (s: LeafSegmentView): LeafSegmentView => (s.kind === 'html' ? { ...s, html: html(s.html) } : s);
  return {
    ...doc,
    segments: doc.segments.map((s) => (s.kind === 'group' ? { ...s, parts: s.parts.map(leaf) } : leaf(s))),
  };
}
