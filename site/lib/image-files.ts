// astro:assets for doc images (site/lib/images.ts). A build of a course without doc images gets
// site/lib/image-files-off.ts instead (pipeline/site/integration.ts): astro:assets in the build
// costs about a second on every build, rebuilds included.
import type { ImageMetadata } from 'astro';
import { getImage } from 'astro:assets';
import type { PageImage } from './images.ts';

/** Twice the 40rem text column: sharp on high-density screens, no larger. */
const MAX_WIDTH = 1360;

/** The optimized file of each doc image, by key. */
export async function optimizeImages(images: { key: string; src: ImageMetadata }[]): Promise<Map<string, PageImage>> {
  const done = await Promise.all(
    images.map(async ({ key, src }) => {
      const vector = src.format === 'svg';
      const image = await getImage({ src, ...(vector || src.width <= MAX_WIDTH ? {} : { width: MAX_WIDTH }) });
      const width = Number(image.attributes.width ?? src.width);
      const height = Number(image.attributes.height ?? src.height);
      return [key, { src: image.src, width, height }] as const;
    }),
  );
  return new Map(done);
}
