// The planner behind `state next` (docs/protocol.md, state next): a pure function from state, budgets,
// phase actions, drift and the time to what the orchestrator should do next.
import type { Budgets, LessonState, Phase, Stage, State, Task } from '../../content-schemas/index.ts';
import type { PhaseAction } from './phases.ts';
import { ageSeconds, tasksByLease, type InterruptedTask, type RunningTask } from './leases.ts';
import { GATES } from './phases.ts';
import { nextCommand, type PlannedCommand } from './next-command.ts';
import { changedPrerequisites, type ChangedPrerequisite } from './prerequisites.ts';
import { stageIndex, stageRow } from './stages.ts';
import { budgetUsedUp, raiseHint, spentSoFar, usedUpText, type BudgetUsedUp } from './spend.ts';

export interface WorkItem {
  lesson: string;
  module: string;
  stage: Stage;
  next_stage: Stage | null;
  /** Worker role of the lesson's stage as `state stages` names it, "verify" for a drifted lesson, or "orchestrator". */
  role: string;
  /** What the orchestrator does for it, as a command or a worker brief. */
  action: string;
  /** The running task for this lesson, if any. */
  task: { id: string; role: string; started_at: string; age_seconds: number } | null;
  drifted: boolean;
  /** Present while the lesson is reworked after a move back (until it is at `from` again): why it moved back. */
  rework?: { from: Stage; to: Stage; note: string; at: string };
}

export interface BlockedItem {
  lesson: string;
  module: string;
  stage: Stage;
  reason: string;
  by: 'user' | 'fix-budget';
}

export interface NextPlan {
  phase: Phase;
  next_phase: Phase | null;
  /** True when leaving this phase needs --approved. */
  approval_needed: boolean;
  /** True when every action is done (and, at a gate, only the approval is left). */
  ready: boolean;
  /** True in phase done: the course is finished. */
  done: boolean;
  /** One line: what to do now (the same line `init` prints as next). */
  next_step: string;
  /** The one command that takes the next step (once its work is done; at a gate, once the user approved), or null when it is a worker's job or a decision. */
  next_command: PlannedCommand | null;
  actions: PhaseAction[];
  lessons: WorkItem[];
  blocked: BlockedItem[];
  /** Tasks whose lease holds: a worker is (as far as anyone knows) still on them. */
  running: RunningTask[];
  /** Running tasks whose lease expired: the worker is gone or stuck. */
  interrupted: InterruptedTask[];
  /** Done lessons whose prerequisite drifted, was moved back or marked stale after they were done. */
  prerequisites_changed: ChangedPrerequisite[];
  budgets: Budgets;
  /** A spending budget (`budgets.cost_usd`, `budgets.tokens`) that is used up: no task starts until the user raises it. */
  budget_used_up: (BudgetUsedUp & { text: string; fix: string }) | null;
}

export interface PlanInput {
  state: State;
  budgets: Budgets;
  next_phase: Phase | null;
  actions: PhaseAction[];
  /** Lesson ids whose verified code changed since verification. */
  drifted: ReadonlySet<string>;
  now: Date;
  /** Files changed since each interrupted task started, by task id (read by the caller). */
  changedFiles?: ReadonlyMap<string, string[]>;
  /** Lesson id → prerequisites from curriculum.yaml (read by the caller). */
  prerequisites?: ReadonlyMap<string, readonly string[]>;
}

function runningTasks(state: State): Task[] {
  return Object.values(state.tasks)
    .filter((task) => task.status === 'running')
    .sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
}

/** The role and action for a lesson's next stage. */
export function roleFor(lesson: LessonState, drifted: boolean): { role: string; action: string } {
  const id = lesson.id;
  if (drifted)
    return {
      role: 'verify',
      action: `code changed since it was verified: codelabgen state set ${id} code --note "code changed", then verify`,
    };
  if (lesson.stage === 'code') {
    // The role is the stage's worker (as `state stages` says); before any failure no worker is needed yet.
    if (lesson.fix_attempts_used > 0)
      return {
        role: 'code-fixer',
        action:
          `code-fixer repairs the failure (${lesson.last_failure ?? 'see the last run'}` +
          `${lesson.last_verify_failure?.note ? `; orchestrator's note: ${lesson.last_verify_failure.note}` : ''}` +
          `), then codelabgen verify ${id} --update-state`,
      };
    return {
      role: 'code-fixer',
      action: `codelabgen verify ${id} --update-state (no worker yet: a code-fixer repairs the code only if it fails)`,
    };
  }
  const row = stageRow(lesson.stage);
  if (row.role === 'orchestrator')
    return {
      role: 'orchestrator',
      action: row.next_stage ? `final checks, then ${row.then.replace('<id>', id)}` : 'nothing',
    };
  return {
    role: row.role,
    action: `${row.role} ${row.work.replaceAll('<id>', id)}, then ${row.then.replace('<id>', id)}`,
  };
}

/** The last move back while the lesson has not yet reached the stage it was moved back from. */
export function activeRework(lesson: LessonState): WorkItem['rework'] | null {
  const rework = lesson.rework;
  return rework && stageIndex(lesson.stage) < stageIndex(rework.from) ? rework : null;
}

function reworkLine(lesson: LessonState, rework: NonNullable<WorkItem['rework']>): string {
  const next = stageRow(lesson.stage).next_stage;
  const redo =
    stageIndex(lesson.stage) > 0
      ? ` (to redo ${lesson.stage} itself: codelabgen state rework ${lesson.id} ${lesson.stage} --note "why")`
      : '';
  return `rework, moved back from ${rework.from} to ${rework.to}: "${rework.note}"; the work redone now is ${next ?? 'nothing'}${redo}`;
}

interface ModuleState {
  id: string;
  /** First unfinished lesson of the module (in curriculum order), or null when all are done. */
  first: LessonState | null;
  underWay: boolean;
}

function modulesOf(state: State, drifted: ReadonlySet<string>): ModuleState[] {
  const modules = new Map<string, ModuleState>();
  for (const id of state.lesson_order) {
    const lesson = state.lessons[id];
    if (!lesson) continue;
    const module = modules.get(lesson.module_id) ?? { id: lesson.module_id, first: null, underWay: false };
    if (lesson.stage !== 'pending') module.underWay = true;
    if (module.first === null && (lesson.stage !== 'done' || lesson.stale || drifted.has(id))) module.first = lesson;
    modules.set(lesson.module_id, module);
  }
  return [...modules.values()];
}

/** Work items: the first unfinished (or stale, or drifted) lesson of each module, modules under way first, up to budgets.parallel. */
export function planLessons(input: PlanInput): WorkItem[] {
  const running = runningTasks(input.state);
  const open = modulesOf(input.state, input.drifted).filter((module) => module.first !== null && !module.first.blocked);
  const ordered = [...open.filter((module) => module.underWay), ...open.filter((module) => !module.underWay)];
  return ordered.slice(0, input.budgets.parallel).map((module) => {
    const lesson = module.first as LessonState;
    const drifted = input.drifted.has(lesson.id);
    const task = running.find((item) => item.lesson === lesson.id);
    const rework = activeRework(lesson);
    const work = lesson.stale
      ? {
          role: 'orchestrator',
          action: `stale (${lesson.stale.reason}): move it back with codelabgen state set ${lesson.id} <stage> --note "..."`,
        }
      : roleFor(lesson, drifted);
    return {
      lesson: lesson.id,
      module: module.id,
      stage: lesson.stage,
      next_stage: lesson.stale ? null : stageRow(lesson.stage).next_stage,
      role: work.role,
      action: rework && !lesson.stale && !drifted ? `${reworkLine(lesson, rework)}; ${work.action}` : work.action,
      task: task
        ? {
            id: task.id,
            role: task.role,
            started_at: task.started_at,
            age_seconds: ageSeconds(task.started_at, input.now),
          }
        : null,
      drifted,
      ...(rework ? { rework } : {}),
    };
  });
}

/** What to do next: the phase's actions, lesson work items (lessons phase only), blocked, interrupted. */
export function planNext(input: PlanInput): NextPlan {
  const { state } = input;
  const blocked = state.lesson_order.flatMap((id) => {
    const lesson = state.lessons[id];
    return lesson?.blocked
      ? [
          {
            lesson: id,
            module: lesson.module_id,
            stage: lesson.stage,
            reason: lesson.blocked.reason,
            by: lesson.blocked.by,
          },
        ]
      : [];
  });
  const { running, interrupted } = tasksByLease(state, runningTasks(state), input.now, input.changedFiles ?? new Map());
  const usedUp = budgetUsedUp(spentSoFar(state), input.budgets);
  const plan = {
    phase: state.phase,
    next_phase: input.next_phase,
    approval_needed: GATES.includes(state.phase),
    ready: input.next_phase !== null && input.actions.every((item) => item.done),
    done: state.phase === 'done',
    next_step: '',
    next_command: null,
    actions: input.actions,
    lessons: state.phase === 'lessons' ? planLessons(input) : [],
    blocked,
    running,
    interrupted,
    prerequisites_changed: changedPrerequisites(state, input.prerequisites ?? new Map(), input.drifted),
    budgets: input.budgets,
    budget_used_up: usedUp ? { ...usedUp, text: usedUpText(usedUp), fix: raiseHint(usedUp) } : null,
  };
  return { ...plan, next_step: nextStep(plan), next_command: nextCommand(plan, state) };
}

/** The plan in one line, most urgent first: interrupted tasks, lesson work, missing actions, the phase step. */
export function nextStep(plan: Omit<NextPlan, 'next_step' | 'next_command'>): string {
  if (plan.done) return 'the course is done: nothing left to do';
  if (plan.budget_used_up)
    return `${plan.budget_used_up.text}: no task starts until the user raises it; ${plan.budget_used_up.fix}`;
  if (plan.interrupted.length > 0)
    return `resume or reset the interrupted tasks first: ${plan.interrupted.map((task) => task.task).join(', ')}`;
  if (plan.lessons.length > 0)
    return `work the lessons: ${plan.lessons.map((item) => `${item.lesson} (${item.role})`).join(', ')}`;
  const changed = plan.prerequisites_changed[0];
  if (changed) return `${changed.message}: ${changed.fix}`;
  if (plan.phase === 'lessons' && plan.blocked.length > 0 && !plan.ready)
    return `every open lesson is blocked: ask the user about ${plan.blocked.map((item) => item.lesson).join(', ')}, then codelabgen state unblock <id>`;
  const missing = plan.actions.find((item) => !item.done);
  if (missing)
    return `${missing.description}${missing.path ? ` (${missing.path})` : ''}, then: codelabgen state phase ${plan.next_phase}`;
  if (plan.approval_needed)
    return `ask the user to approve, then: codelabgen state phase ${plan.next_phase} --approved`;
  return `codelabgen state phase ${plan.next_phase}`;
}
