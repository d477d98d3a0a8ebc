// Phases (docs/protocol.md, "Phases"): the order, and the decision of `state phase <next>` (one
// step, gates need --approved). Pure: the required actions are checked by artifacts/phase-actions.ts.
import type { EventDraft, Phase, State } from '../../content-schemas/index.ts';
import { GATE_PHASES, PHASES } from '../../content-schemas/fast.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';

/** One required action of a phase, as `state next` shows it. */
export interface PhaseAction {
  /** Stable id, e.g. "recon.overview". */
  id: string;
  description: string;
  /** The artifact it is about, relative to the course root (null when not one file). */
  path: string | null;
  done: boolean;
  /** Why it is not done: one line each, naming the file and field. */
  problems: string[];
}

export const GATES: readonly Phase[] = GATE_PHASES;

export function nextPhase(phase: Phase): Phase | null {
  return PHASES[PHASES.indexOf(phase) + 1] ?? null;
}

/** What the disk says for `state phase`: the problems of the current phase's required actions. */
export interface PhaseFacts {
  problems: string[];
}

/** The event of `state phase <target>`, or a refusal listing what is missing. */
export function decidePhase(state: State, target: string, approved: boolean, facts: PhaseFacts): EventDraft {
  const next = nextPhase(state.phase);
  if (next === null) refuse(`the course is already at the last phase (done)`);
  if (!(PHASES as readonly string[]).includes(target))
    refuse(`unknown phase "${printable(target)}"; the next phase is ${next}`, `phases: ${PHASES.join(' → ')}`);
  if (target !== next)
    refuse(`cannot move from ${state.phase} to ${target}: phases move one step at a time; the next phase is ${next}`);
  if (GATES.includes(state.phase) && !approved)
    refuse(`leaving ${state.phase} needs the user's approval: codelabgen state phase ${next} --approved`);
  const problems = facts.problems;
  if (problems.length > 0) {
    const first = problems.slice(0, 1).join('');
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    refuse(`cannot leave ${state.phase}: ${first}${more}`, ...problems.slice(1, 20), `see: codelabgen state next`);
  }
  return { kind: 'phase.advance', from: state.phase, to: next, approved };
}
