// The verification badge's words and tone (site/components/VerifyBadge.astro), pure so that page-data
// tests check it without Astro: the learner's trust mark is green only for a pass of the code as it is.
import type { LessonPage } from './lessons.ts';

export interface VerifyBadge {
  text: 'not verified' | 'tests passed' | 'tests failed';
  /** ok: a pass of this code; bad: a failure; warn: never verified, or a pass of code changed since. */
  tone: 'ok' | 'bad' | 'warn';
}

export function verifyBadge(v: LessonPage['verification']): VerifyBadge {
  if (v.passed === null && v.codeHash === null) return { text: 'not verified', tone: 'warn' };
  const passed = v.passed === true || (v.passed === null && v.codeHash !== null);
  return { text: passed ? 'tests passed' : 'tests failed', tone: v.drifted ? 'warn' : passed ? 'ok' : 'bad' };
}
