// site/lib/image-files.ts for a build of a course without doc images (pipeline/site/integration.ts
// swaps it in): no astro:assets in the build.
import type { ImageMetadata } from 'astro';
import type { PageImage } from './images.ts';

export async function optimizeImages(images: { key: string; src: ImageMetadata }[]): Promise<Map<string, PageImage>> {
  if (images.length > 0)
    throw new Error('codelabgen: this build was set up for a course without doc images, but a lesson page has some');
  return new Map();
}
