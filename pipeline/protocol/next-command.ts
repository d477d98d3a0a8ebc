// The one command that takes the next step of `state next` (its `next_command`; over MCP `next_call`),
// or null when the next step is a worker's job or a decision. Pure, from the plan and the state;
// following it is never refused when the plan's facts still hold (cli/mcp-walk.test.ts walks a course by it).
import type { LessonState, State, Task } from '../../content-schemas/index.ts';
import type { PhaseAction } from './phases.ts';
import type { InterruptedTask, RunningTask } from './leases.ts';
import type { ChangedPrerequisite } from './prerequisites.ts';
import { getOwn } from '../state/keyed.ts';
import { stageRow } from './stages.ts';
import { TASK_PHASES } from './tasks.ts';

/** A command of the command table with its positionals and options (`--update-state` → `"update-state": true`). */
export interface PlannedCommand {
  command: string;
  positionals: string[];
  options: Record<string, string | true>;
}

/** What nextCommand reads of the plan (planner.ts's NextPlan). */
export interface PlanForCommand {
  phase: State['phase'];
  next_phase: State['phase'] | null;
  approval_needed: boolean;
  done: boolean;
  ready: boolean;
  actions: PhaseAction[];
  lessons: Array<{ lesson: string; next_stage: string | null; drifted: boolean; task: { id: string } | null }>;
  blocked: unknown[];
  running: RunningTask[];
  interrupted: InterruptedTask[];
  prerequisites_changed: ChangedPrerequisite[];
}

/** The role a phase task's worker is recorded with (`state task start --phase P --role researcher`). */
export const PHASE_WORKER_ROLE = 'researcher';

function planned(command: string, positionals: string[] = [], options: PlannedCommand['options'] = {}): PlannedCommand {
  return { command, positionals, options };
}

/** The command line of a planned command: `codelabgen verify 1.2 --update-state`. */
export function commandLine(planned: PlannedCommand): string {
  const quote = (value: string) => (/^[\w./:@<>-]+$/.test(value) ? value : JSON.stringify(value));
  const options = Object.entries(planned.options).flatMap(([name, value]) =>
    value === true ? [`--${name}`] : [`--${name}`, quote(value)],
  );
  return ['codelabgen', planned.command, ...planned.positionals.map(quote), ...options].join(' ');
}

/** The lesson's last task that finished done after the lesson last changed: the worker answered, nothing recorded yet. */
function answeredTask(state: State, lesson: LessonState): Task | null {
  const done = Object.values(state.tasks).filter(
    (task) => task.lesson === lesson.id && task.status === 'done' && task.finished_at !== null,
  );
  const last = done.sort((a, b) => Number(b.id.slice(1)) - Number(a.id.slice(1)))[0];
  return last && (last.finished_at as string) >= lesson.updated_at ? last : null;
}

/** The one command for a lesson work item, or null (a worker is on it, a stale lesson, an answer to judge). */
function lessonCommand(state: State, item: PlanForCommand['lessons'][number]): PlannedCommand | null {
  const lesson = getOwn(state.lessons, item.lesson);
  if (lesson === undefined || item.task !== null || lesson.stale) return null;
  const id = lesson.id;
  if (item.drifted) return planned('state set', [id, 'code'], { note: 'code changed since it was verified' });
  const answered = answeredTask(state, lesson);
  if (lesson.stage === 'code')
    return lesson.fix_attempts_used === 0 || answered !== null
      ? planned('verify', [id], { 'update-state': true })
      : planned('state task start', [id]);
  const row = stageRow(lesson.stage);
  if (row.next_stage === null) return null;
  if (row.role === 'orchestrator') return planned('state set', [id, row.next_stage]);
  if (answered === null) return planned('state task start', [id]);
  const result = answered.result;
  // The worker answered: its reported stage is recorded; any other answer is the orchestrator's to judge.
  return result !== null && 'stage' in result && result.status === 'ok' && result.stage === row.next_stage
    ? planned('state set', [id, row.next_stage])
    : null;
}

/** The command a missing phase action names (register, site build, report), or a phase worker to start. */
function actionCommand(plan: PlanForCommand, missing: PhaseAction): PlannedCommand | null {
  if (missing.id === 'scaffold.registered') return planned('register');
  if (missing.id === 'assembly.site_build') return planned('site build');
  if (missing.id === 'assembly.report') return planned('report');
  if (!(TASK_PHASES as readonly string[]).includes(plan.phase)) return null;
  const working = plan.running.some((task) => task.phase === plan.phase);
  return working ? null : planned('state task start', [], { phase: plan.phase, role: PHASE_WORKER_ROLE });
}

/** The one command that takes the next step, in nextStep's order of urgency; null for work or a decision. */
export function nextCommand(plan: PlanForCommand, state: State): PlannedCommand | null {
  if (plan.done || plan.interrupted.length > 0) return null;
  if (plan.lessons.length > 0) {
    for (const item of plan.lessons) {
      const command = lessonCommand(state, item);
      if (command !== null) return command;
    }
    return null;
  }
  if (plan.prerequisites_changed.length > 0) return null;
  if (plan.phase === 'lessons' && plan.blocked.length > 0 && !plan.ready) return null;
  const missing = plan.actions.find((action) => !action.done);
  if (missing) return actionCommand(plan, missing);
  if (plan.next_phase === null) return null;
  return planned('state phase', [plan.next_phase], plan.approval_needed ? { approved: true } : {});
}
