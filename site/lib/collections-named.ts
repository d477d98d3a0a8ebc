// The names of the course's content collections (site/collections.ts): prefixed, so a host site's
// own `lessons` or `docs` collection is never replaced when it mounts a course (docs/site.md).
import { getCollection, getEntry } from 'astro:content';

/** What a host site is told when its content config lacks the course's collections. */
export const MISSING_COLLECTIONS =
  "codelabgen: the course's content collections are missing; add them to src/content.config.ts: import { " +
  "codelabgenCollections } from 'codelabgen/content'; export const collections = { ...codelabgenCollections(), " +
  '...yourOwn };';

/** The course entry; a missing collection is named as what to add, not a TypeError. */
export async function courseEntry() {
  const entry = await getEntry('codelabgen-course', 'course');
  if (entry === undefined) throw new Error(MISSING_COLLECTIONS);
  return entry;
}

/**
 * getStaticPaths of a page per lesson (`lessons/<id>-<slug>/…`), those `having` says, with the
 * cacheKey experimental.incrementalBuild restores an unchanged page by: the lesson's and the
 * course's entry digests, under `kind` so that two pages of one lesson keep keys of their own.
 */
export async function lessonPaths(kind: string, having: (lesson: { files: unknown[] }) => boolean = () => true) {
  const lessons = await getCollection('codelabgen-lessons');
  const course = await courseEntry();
  return lessons
    .filter((entry) => having(entry.data))
    .map((entry) => ({
      params: { lesson: `${entry.data.id}-${entry.data.slug}` },
      props: { id: entry.id },
      cacheKey: `${kind}${entry.digest ?? entry.id}:${course?.digest ?? ''}`,
    }));
}
