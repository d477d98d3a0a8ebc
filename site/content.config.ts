// The course collections of the codelabgen site itself; a host Astro site does the same in its
// own src/content.config.ts (docs/site.md).
import { codelabgenCollections } from './collections.ts';

export const collections = codelabgenCollections();
