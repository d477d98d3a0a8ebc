// Two collections straight from the course folder with Astro's built-in glob loader.
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';

const base = process.env.BARE_COURSE ?? '.';
export const collections = {
  readalong: defineCollection({ loader: glob({ pattern: '*/*/docs/readalong.md', base }) }),
  notes: defineCollection({ loader: glob({ pattern: '*/*/docs/notes.md', base }) }),
};
