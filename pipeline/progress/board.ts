// The producer's live board (site dev's /progress/ page, its live updates, `state watch`): a pure
// function of the state, the last events and the clock. `followLog` keeps what the board needs of
// the log while a tail (pipeline/store/event-tail.ts) reads it: the last events and the gates' approvals.
import type { Budgets, Event, LessonState, Phase, Stage, State, Task } from '../../content-schemas/index.ts';
import { PHASES, STAGES, stageIndex } from '../../content-schemas/fast.ts';
import { ageSeconds, leaseHolds } from '../protocol/leases.ts';
import { GATES, nextPhase } from '../protocol/phases.ts';
import { tellRecent, type FeedLine } from './feed.ts';

/** Events the feed shows. */
export const FEED_LENGTH = 20;

export interface GateApproval {
  gate: Phase;
  at: string;
  /** The command line that approved it, as the event recorded it. */
  command: string | null;
  seq: number;
}

/** What the board keeps of the log: its last events and every gate approval. */
export interface FollowedLog {
  recent: Event[];
  approvals: GateApproval[];
}

export function emptyLog(): FollowedLog {
  return { recent: [], approvals: [] };
}

/** Adds a tail's batch (after a reset the log is read again from its start). */
export function followLog(log: FollowedLog, batch: { events: readonly Event[]; reset: boolean }): FollowedLog {
  const base = batch.reset ? emptyLog() : log;
  const approvals = [...base.approvals];
  for (const event of batch.events) {
    if (event.kind === 'phase.advance' && event.approved && GATES.includes(event.from))
      approvals.push({ gate: event.from, at: event.ts, command: event.command ?? null, seq: event.seq });
  }
  return { recent: [...base.recent, ...batch.events.slice(-FEED_LENGTH)].slice(-FEED_LENGTH), approvals };
}

export interface BoardPhase {
  phase: Phase;
  status: 'done' | 'current' | 'ahead';
  gate: boolean;
  entered_at: string | null;
  approval: GateApproval | null;
}

export interface BoardCard {
  id: string;
  slug: string;
  title: string;
  module: { id: string; title: string };
  stage: Stage;
  blocked: { reason: string; by: 'user' | 'fix-budget' } | null;
  stale: string | null;
  drifted: boolean;
  fix: { used: number; budget: number };
  review: { used: number; budget: number };
  /** The running task on the lesson: its role and age. */
  task: { id: string; role: string; age_seconds: number; interrupted: boolean } | null;
}

export interface BoardTask {
  id: string;
  lesson: string | null;
  phase: Phase | null;
  role: string;
  age_seconds: number;
  /** Running: seconds left on the lease. Interrupted: seconds since it ran out (null: never had one). */
  lease_seconds: number | null;
  hint: string;
}

export interface HumanItem {
  kind: 'gate' | 'blocked' | 'interrupted' | 'stale' | 'drifted';
  /** The lesson, task or phase it is about. */
  subject: string;
  text: string;
  /** The command that resolves it. */
  command: string;
  /** The same as an MCP tool call. */
  tool: { name: string; arguments: Record<string, unknown> };
}

export interface Board {
  title: string;
  phase: Phase;
  seq: number;
  now: string;
  phases: BoardPhase[];
  columns: { stage: Stage; cards: BoardCard[] }[];
  lessons: { total: number; done: number; blocked: number; stale: number; drifted: number };
  running: BoardTask[];
  interrupted: BoardTask[];
  needs_human: HumanItem[];
  feed: FeedLine[];
  throughput: Throughput;
}

export interface Throughput {
  /** When the lessons phase was first entered (the clock of the figures), or null before it. */
  since: string | null;
  done: number;
  /** Lessons done per hour since then; null until a lesson is done. */
  done_per_hour: number | null;
  /** Stage moves left before every lesson is done. */
  stages_left: number;
  /** Time left at the pace of the stage moves made so far; null until there is a pace. */
  eta_seconds: number | null;
}

export interface BoardInput {
  state: State;
  budgets: Budgets;
  log: FollowedLog;
  /** Lessons whose code changed since they were verified (computed by the caller: it reads files). */
  drifted: ReadonlySet<string>;
  now: Date;
}

function phasesOf(state: State, approvals: readonly GateApproval[]): BoardPhase[] {
  const current = PHASES.indexOf(state.phase);
  return PHASES.map((phase, index) => {
    const entered = state.phase_history.findLast((entry) => entry.phase === phase);
    const approval = approvals.findLast((a) => a.gate === phase) ?? null;
    return {
      phase,
      status: index < current ? 'done' : index === current ? 'current' : 'ahead',
      gate: GATES.includes(phase),
      entered_at: entered?.entered_at ?? null,
      approval: index < current ? approval : null,
    };
  });
}

function cardOf(lesson: LessonState, input: BoardInput, task: Task | undefined): BoardCard {
  const { budgets, now } = input;
  return {
    id: lesson.id,
    slug: lesson.slug,
    title: lesson.title,
    module: { id: lesson.module_id, title: lesson.module_title },
    stage: lesson.stage,
    blocked: lesson.blocked ? { reason: lesson.blocked.reason, by: lesson.blocked.by } : null,
    stale: lesson.stale?.reason ?? null,
    drifted: input.drifted.has(lesson.id),
    fix: { used: lesson.fix_attempts_used, budget: budgets.fix_attempts },
    review: { used: lesson.review_rounds_used, budget: budgets.review_rounds + (lesson.review_rounds_granted ?? 0) },
    task: task
      ? {
          id: task.id,
          role: task.role,
          age_seconds: ageSeconds(task.started_at, now),
          interrupted: !leaseHolds(task, now),
        }
      : null,
  };
}

function boardTask(task: Task, now: Date): BoardTask {
  const holds = leaseHolds(task, now);
  const lease =
    task.lease_expires_at === undefined
      ? null
      : Math.round(Math.abs(Date.parse(task.lease_expires_at) - now.getTime()) / 1000);
  const subject = task.lesson === null ? `phase ${task.phase ?? '?'}` : `lesson ${task.lesson}`;
  const hint = holds
    ? `${task.role} on ${subject}; renew: codelabgen state task heartbeat ${task.id}`
    : `${task.role} on ${subject} stopped renewing its lease: record its answer (codelabgen state task done|fail ${task.id}) or reset it (codelabgen state task reset ${task.id}) and start the work again`;
  return {
    id: task.id,
    lesson: task.lesson,
    phase: task.phase ?? null,
    role: task.role,
    age_seconds: ageSeconds(task.started_at, now),
    lease_seconds: lease,
    hint,
  };
}

function humanItems(
  state: State,
  lessons: LessonState[],
  interrupted: BoardTask[],
  drifted: ReadonlySet<string>,
): HumanItem[] {
  const items: HumanItem[] = [];
  const next = nextPhase(state.phase);
  if (GATES.includes(state.phase) && next !== null) {
    items.push({
      kind: 'gate',
      subject: state.phase,
      text: `gate ${state.phase}: the user approves what came before, then the course moves on to ${next}`,
      command: `codelabgen state phase ${next} --approved`,
      tool: { name: 'state_phase', arguments: { next, approved: true } },
    });
  }
  for (const lesson of lessons) {
    if (!lesson.blocked) continue;
    const roundsUsedUp = /review rounds used up/.test(lesson.blocked.reason);
    const note = 'your decision';
    items.push({
      kind: 'blocked',
      subject: lesson.id,
      text: `lesson ${lesson.id} is blocked (${lesson.blocked.by}): ${lesson.blocked.reason}`,
      command: `codelabgen state unblock ${lesson.id} --note "${note}"${roundsUsedUp ? ' --review-round' : ''}`,
      tool: {
        name: 'state_unblock',
        arguments: { id: lesson.id, note, ...(roundsUsedUp ? { review_round: true } : {}) },
      },
    });
  }
  for (const task of interrupted) {
    items.push({
      kind: 'interrupted',
      subject: task.id,
      text: `task ${task.id} (${task.role} on ${task.lesson === null ? `phase ${task.phase ?? '?'}` : `lesson ${task.lesson}`}) stopped renewing its lease`,
      command: `codelabgen state task reset ${task.id}`,
      tool: { name: 'state_task_reset', arguments: { task: task.id } },
    });
  }
  for (const lesson of lessons) {
    if (lesson.stale)
      items.push({
        kind: 'stale',
        subject: lesson.id,
        text: `lesson ${lesson.id} is stale: ${lesson.stale.reason}`,
        command: `codelabgen state set ${lesson.id} notes --note "redo: ${lesson.stale.reason.replace(/["\\$`]/g, '')}"`,
        tool: { name: 'state_set', arguments: { id: lesson.id, stage: 'notes', note: `redo: ${lesson.stale.reason}` } },
      });
    if (drifted.has(lesson.id))
      items.push({
        kind: 'drifted',
        subject: lesson.id,
        text: `lesson ${lesson.id}: its code changed since it was verified`,
        command: `codelabgen state set ${lesson.id} code --note "code changed after verification"`,
        tool: {
          name: 'state_set',
          arguments: { id: lesson.id, stage: 'code', note: 'code changed after verification' },
        },
      });
  }
  return items;
}

function throughputOf(state: State, lessons: LessonState[], now: Date): Throughput {
  const since = state.phase_history.find((entry) => entry.phase === 'lessons')?.entered_at ?? null;
  const done = lessons.filter((lesson) => lesson.stage === 'done').length;
  const last = STAGES.length - 1;
  const stepsDone = lessons.reduce((sum, lesson) => sum + stageIndex(lesson.stage), 0);
  const stagesLeft = lessons.length * last - stepsDone;
  const hours = since === null ? 0 : (now.getTime() - Date.parse(since)) / 3_600_000;
  const pace = hours > 0 && stepsDone > 0 ? stepsDone / hours : null; // stage moves per hour
  return {
    since,
    done,
    done_per_hour: hours > 0 && done > 0 ? done / hours : null,
    stages_left: stagesLeft,
    eta_seconds: pace === null ? null : Math.round((stagesLeft / pace) * 3600),
  };
}

export function buildBoard(input: BoardInput): Board {
  const { state, now } = input;
  const lessons = state.lesson_order.flatMap((id) =>
    Object.hasOwn(state.lessons, id) ? [state.lessons[id] as LessonState] : [],
  );
  const running = Object.values(state.tasks).filter((task) => task.status === 'running');
  const byLesson = new Map(running.flatMap((task) => (task.lesson === null ? [] : [[task.lesson, task] as const])));
  const interrupted = running.filter((task) => !leaseHolds(task, now)).map((task) => boardTask(task, now));
  return {
    title: state.title,
    phase: state.phase,
    seq: state.last_seq,
    now: now.toISOString(),
    phases: phasesOf(state, input.log.approvals),
    columns: STAGES.map((stage) => ({
      stage,
      cards: lessons
        .filter((lesson) => lesson.stage === stage)
        .map((lesson) => cardOf(lesson, input, byLesson.get(lesson.id))),
    })),
    lessons: {
      total: lessons.length,
      done: lessons.filter((lesson) => lesson.stage === 'done').length,
      blocked: lessons.filter((lesson) => lesson.blocked).length,
      stale: lessons.filter((lesson) => lesson.stale).length,
      drifted: lessons.filter((lesson) => input.drifted.has(lesson.id)).length,
    },
    running: running.filter((task) => leaseHolds(task, now)).map((task) => boardTask(task, now)),
    interrupted,
    needs_human: humanItems(state, lessons, interrupted, input.drifted),
    feed: tellRecent(state, input.log.recent).reverse(),
    throughput: throughputOf(state, lessons, now),
  };
}
