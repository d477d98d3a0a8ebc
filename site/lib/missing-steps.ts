// The "missing:" line of a drafts lesson page (site/components/StageBadge.astro): what the lesson
// still lacks to be published. Pure, so it is tested without Astro.
import { STAGES, type SiteConfig, type Stage } from '../../content-schemas/index.ts';

const STEP_NAMES: Record<Stage, string> = {
  pending: 'pending',
  spec: 'spec',
  code: 'code',
  verified: 'verification',
  readalong: 'readalong',
  notes: 'notes',
  reviewed: 'review',
  done: 'done',
};

/**
 * What a lesson still lacks to be published, by the course's `site.publish` rule and its recorded
 * runs: `all` nothing; `verified` passing tests (none once its last run passed or it was verified);
 * `done` every stage ahead, but not the verification when its last run passed (only the stage move
 * is left). Every stage when the course has no state.
 */
export function missingSteps(
  stage: Stage | null,
  publish: SiteConfig['publish'] = 'done',
  lastRunPassed: boolean | null = null,
): string[] {
  const passed = lastRunPassed === true || (stage !== null && STAGES.indexOf(stage) >= STAGES.indexOf('verified'));
  if (publish === 'all') return [];
  if (publish === 'verified') return passed ? [] : [STEP_NAMES.verified];
  const from = stage === null ? 1 : STAGES.indexOf(stage) + 1;
  return STAGES.slice(from)
    .filter((s) => s !== 'done' && !(passed && s === 'verified'))
    .map((s) => STEP_NAMES[s]);
}

/**
 * Whether missingSteps() depends on the lesson's last run at all: only below stage verified, under a
 * rule other than `all`. Callers skip reading the run (and hashing the lesson's code to see whether
 * the run is of it) for every other lesson.
 */
export function needsLastRun(stage: Stage | null, publish: SiteConfig['publish'] = 'done'): boolean {
  return publish !== 'all' && (stage === null || STAGES.indexOf(stage) < STAGES.indexOf('verified'));
}
