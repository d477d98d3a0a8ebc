// A worker's status JSON (docs/protocol.md, "What a worker returns"): find the last JSON object in a worker's answer
// (the whole text, a ```json fence, or a bare object) and validate it with WorkerStatusSchema.
import type { WorkerStatus } from '../../content-schemas/index.ts';
import { DataFileError, WorkerStatusParser, issuesToProblems, zodSchemas } from '../../content-schemas/fast.ts';

/** What the task a status is recorded for expects: a lesson worker's status or a phase worker's. */
export type StatusExpectation =
  | { task: string; lesson: string; phase?: undefined }
  | { task: string; phase: string; lesson?: undefined };

/** Characters the brace scan may visit in all (text of unbalanced braces is quadratic otherwise). */
const SCAN_BUDGET = 32 * 1024 * 1024;

/** End index (exclusive) of the JSON object starting at `start`, or -1; strings are skipped. */
function objectEnd(text: string, start: number, budget: { left: number }): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    if (--budget.left < 0)
      throw new DataFileError('(worker status)', [
        'too many unbalanced braces to find the last JSON block; end the answer with one JSON object',
      ]);
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth += 1;
    else if (c === '}') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The last top-level JSON object in `text` that parses, or undefined. */
export function lastJsonBlock(text: string): unknown {
  let found: unknown;
  const budget = { left: SCAN_BUDGET };
  let i = text.indexOf('{');
  while (i !== -1) {
    const end = objectEnd(text, i, budget);
    let next = i + 1;
    if (end !== -1) {
      try {
        found = JSON.parse(text.slice(i, end));
        next = end;
      } catch {
        // not JSON (prose with braces): try the next brace
      }
    }
    i = text.indexOf('{', next);
  }
  return found;
}

/**
 * Finds and validates the worker status in `text`; throws DataFileError naming `label` and fields.
 * With `expect` (the task it is for) a status of the other kind is refused, and the error says
 * which kind the task expected; without it, the fields name the kind (`phase` without `lesson`).
 */
export function parseWorkerStatus(text: string, label: string, expect?: StatusExpectation): WorkerStatus {
  let block: unknown;
  try {
    block = lastJsonBlock(text);
  } catch (error) {
    if (error instanceof DataFileError) throw new DataFileError(label, error.problems);
    throw error;
  }
  if (block === undefined)
    throw new DataFileError(label, ['no JSON object found (a worker ends its answer with one JSON block)']);
  const parsed = WorkerStatusParser.safeParse(block);
  const kind = expect ? (expect.phase !== undefined ? 'phase' : 'lesson') : isPhaseShaped(block) ? 'phase' : 'lesson';
  if (parsed.success && 'phase' in parsed.data === (kind === 'phase')) return parsed.data;
  const variant = zodSchemas()[kind === 'phase' ? 'PhaseWorkerStatusSchema' : 'LessonWorkerStatusSchema'];
  const checked = variant.safeParse(block, { reportInput: true });
  const problems = checked.success ? [] : issuesToProblems(checked.error.issues);
  // The task's kind is named when the status lacks its key (a lesson status for a phase task, or the reverse).
  const otherKind = expect !== undefined && !(typeof block === 'object' && block !== null && kind in block);
  throw new DataFileError(label, otherKind ? [expectedLine(expect), ...problems] : problems);
}

function isPhaseShaped(block: unknown): boolean {
  return typeof block === 'object' && block !== null && 'phase' in block && !('lesson' in block);
}

function expectedLine(expect: StatusExpectation): string {
  return expect.phase !== undefined
    ? `task ${expect.task} is a phase task (phase ${expect.phase}): expected a phase worker's status {"phase": "` +
        `${expect.phase}", "status": "ok"|"failed"|"needs-user", "artifacts": [...], "notes": "..."}`
    : `task ${expect.task} is for lesson ${expect.lesson}: expected a lesson worker's status {"lesson": "` +
        `${expect.lesson}", "status": "ok"|"failed"|"needs-user", "stage": "<stage>", "artifacts": [...], "notes": ` +
        '"..."}';
}
