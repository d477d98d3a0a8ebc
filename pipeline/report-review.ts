// The review a stage move records for the report: the verdict and findings of review.md at the
// moment the lesson moves to reviewed or back from notes or reviewed, so the log alone tells it.
import type { EventOf } from '../content-schemas/index.ts';
import type { Course } from './course.ts';
import { readReview } from './read.ts';

type ReviewEvidence = Pick<EventOf<'lesson.stage'>, 'review'>;

/** `{ review }` from the lesson's review.md, or `{}` when there is none or it does not parse. */
export function reviewEvidence(course: Course, id: string): ReviewEvidence {
  try {
    const found = readReview(course, id);
    if (found === null || found.review.lesson !== id) return {};
    const { verdict, reviewer, round, findings } = found.review;
    return { review: { verdict, findings, ...(reviewer === undefined ? {} : { reviewer }), ...(round === undefined ? {} : { round }) } };
  } catch {
    return {}; // an unreadable review.md never blocks a move back; the forward check reports it
  }
}
