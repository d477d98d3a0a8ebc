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
 * The lessons collection: every lesson with a page in this build. A build without any (a host site's
 * mounted course with none to publish yet, codelabgen({ allowEmpty: true })) asks Astro for none:
 * Astro stores no empty collection, and each getCollection() of it would print a warning that the
 * collection "does not exist or is empty" (five per build), after the integration said why once.
 */
export async function lessonEntries() {
  const course = await courseEntry();
  return course.data.lessons.some((lesson) => lesson.included) ? getCollection('codelabgen-lessons') : [];
}

/**
 * getStaticPaths of a page per lesson (`lessons/<id>-<slug>/…`), those `having` says, with the
 * cacheKey experimental.incrementalBuild restores an unchanged page by: the lesson's and the
 * course's entry digests, under `kind` so that two pages of one lesson keep keys of their own.
 */
export async function lessonPaths(kind: string, having: (lesson: { files: unknown[] }) => boolean = () => true) {
  const lessons = await lessonEntries();
  const course = await courseEntry();
  return lessons
    .filter((entry) => having(entry.data))
    .map((entry) => ({
      params: { lesson: `${entry.data.id}-${entry.data.slug}` },
      props: { id: entry.id },
      cacheKey: `${kind}${entry.digest ?? entry.id}:${course?.digest ?? ''}`,
    }));
}
