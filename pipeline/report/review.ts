// The review a stage move records for the report: the verdict and findings of review.md at the
// moment the lesson moves to reviewed or back from notes or reviewed, so the log alone tells it.
import { existsSync } from 'node:fs';
import type { EventOf } from '../../content-schemas/index.ts';
import { ReviewParser, parseData, parseFrontMatter, readTextFile } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';

type ReviewEvidence = Pick<EventOf<'lesson.stage'>, 'review'>;

/** `{ review }` from the lesson's review.md, or `{}` when there is none or it does not parse. */
export function reviewEvidence(course: Course, id: string): ReviewEvidence {
  try {
    const rel = ARTIFACTS.lessonReview(id);
    if (!existsSync(abs(course, rel))) return {};
    const review = parseData(ReviewParser, parseFrontMatter(readTextFile(abs(course, rel), rel), rel).data, rel);
    if (review.lesson !== id) return {};
    const { verdict, reviewer, round, findings } = review;
    return {
      review: {
        verdict,
        findings,
        ...(reviewer === undefined ? {} : { reviewer }),
        ...(round === undefined ? {} : { round }),
      },
    };
  } catch {
    return {}; // an unreadable review.md never blocks a move back; the forward check reports it
  }
}
