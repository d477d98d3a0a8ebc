// Types of `codelabgen/content` (site/collections.ts): the course's content collections, to spread
// into a host site's `collections` in src/content.config.ts.
import type { defineCollection } from 'astro:content';

type Collection = ReturnType<typeof defineCollection>;

export function codelabgenCollections(): {
  'codelabgen-course': Collection;
  'codelabgen-lessons': Collection;
  'codelabgen-glossary': Collection;
  'codelabgen-sources': Collection;
  'codelabgen-report': Collection;
  'codelabgen-mdx': Collection;
};
