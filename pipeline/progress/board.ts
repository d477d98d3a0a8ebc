// The producer's live board (site dev's /progress/ page, its live updates, `state watch`): a pure
// function of the state, the last events and the clock. `followLog` keeps what the board needs of
// the log while a tail (pipeline/store/event-tail.ts) reads it: the last events and the gates' approvals.
import type { Budgets, Event, LessonState, Phase, Stage, State, Task } from '../../content-schemas/index.ts';
import { PHASES, STAGES, stageIndex } from '../../content-schemas/fast.ts';
import { ageSeconds, leaseHolds } from '../protocol/leases.ts';
import { GATES, nextPhase } from '../protocol/phases.ts';
import { budgetUsedUp, raiseHint, spentSoFar, usedUpText, type Spent } from '../protocol/spend.ts';
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
  /** The cause of its last failed verification, while no pass has followed. */
  failed: string | null;
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
  lease_expires_at: string | null;
  hint: string;
}

/** A file a gate's reviewer reads, relative to the course root. */
export interface ReviewArtifact {
  /** Its page under /progress/ in the site. */
  slug: string;
  label: string;
  path: string;
}

export interface HumanItem {
  kind: 'gate' | 'budget' | 'blocked' | 'interrupted' | 'stale' | 'drifted';
  /** Stable while the item lasts, new when it comes again (a notification is sent once per key). */
  key: string;
  /** The lesson, task or phase it is about. */
  subject: string;
  text: string;
  /** The command that resolves it. */
  command: string;
  /** The same as an MCP tool call. */
  tool: { name: string; arguments: Record<string, unknown> };
  /** What to read before deciding (a gate's research, sources, curriculum and plan). */
  review?: ReviewArtifact[];
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
  cost: BoardCost;
}

/** What the workers' tasks recorded so far, and where it is heading. */
export interface BoardCost {
  spent: Spent;
  /** Cost at completion at the spending per stage move so far; null before a stage moved or a cost was recorded. */
  projected_usd: number | null;
  budget_usd: number | null;
  budget_tokens: number | null;
}

export interface Throughput {
  /** When the lessons phase was first entered (the clock of the figures), or null before it. */
  since: string | null;
  done: number;
  /** Lessons done per hour since then; null until a lesson is done. */
  done_per_hour: number | null;
  /** Stage moves made (net) and to make in all: the progress bar. */
  stages_done: number;
  stages_total: number;
  /** Stage moves left before every lesson is done. */
  stages_left: number;
  /** When a lesson last changed (a move, a failure, a block), or null before any did. */
  last_moved_at: string | null;
  /** Time left at the pace of the stage moves made up to the last one; null until there is a pace. */
  eta_seconds: number | null;
  /** Nothing moved for longer than STALL_SECONDS or three times the pace per stage, whichever is longer. */
  stalled: boolean;
}

/** Seconds without a lesson changing before the board calls the run stalled, at the least. */
export const STALL_SECONDS = 600;

/** The files a gate's reviewer reads (docs/protocol.md, "Phases"). */
export const GATE_REVIEW: Readonly<Partial<Record<Phase, readonly ReviewArtifact[]>>> = {
  gate_sources: [
    { slug: 'overview', label: 'research overview', path: '.codelabgen/research/overview.md' },
    { slug: 'sources', label: 'sources', path: '.codelabgen/sources.jsonl' },
  ],
  gate_plan: [
    { slug: 'curriculum', label: 'curriculum', path: '.codelabgen/curriculum.yaml' },
    { slug: 'plan', label: 'plan', path: '.codelabgen/plan.md' },
  ],
};

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
    failed: lesson.last_failure,
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
    : `${task.role} on ${subject} stopped renewing its lease: record its answer (codelabgen state task ` +
      `done|fail ${task.id}) or reset it (codelabgen state task reset ${task.id}) and start the work again`;
  return {
    id: task.id,
    lesson: task.lesson,
    phase: task.phase ?? null,
    role: task.role,
    age_seconds: ageSeconds(task.started_at, now),
    lease_seconds: lease,
    lease_expires_at: task.lease_expires_at ?? null,
    hint,
  };
}

function humanItems(input: BoardInput, lessons: LessonState[], interrupted: BoardTask[], spent: Spent): HumanItem[] {
  const { state, drifted } = input;
  const items: HumanItem[] = [];
  const next = nextPhase(state.phase);
  if (GATES.includes(state.phase) && next !== null) {
    const entered = state.phase_history.findLast((entry) => entry.phase === state.phase);
    items.push({
      kind: 'gate',
      key: `gate:${state.phase}:${entered?.seq ?? 0}`,
      subject: state.phase,
      text: `gate ${state.phase}: the user approves what came before, then the course moves on to ${next}`,
      command: `codelabgen state phase ${next} --approved`,
      tool: { name: 'state_phase', arguments: { next, approved: true } },
      review: [...(GATE_REVIEW[state.phase] ?? [])],
    });
  }
  const usedUp = budgetUsedUp(spent, input.budgets);
  if (usedUp)
    items.push({
      kind: 'budget',
      key: `budget:${usedUp.budget}:${usedUp.limit}`,
      subject: `budgets.${usedUp.budget}`,
      text: `${usedUpText(usedUp)}: no new task starts; ${raiseHint(usedUp)}`,
      command: 'codelabgen state show',
      tool: { name: 'state_show', arguments: {} },
    });
  for (const lesson of lessons) {
    if (!lesson.blocked) continue;
    const roundsUsedUp = /review rounds used up/.test(lesson.blocked.reason);
    const note = 'your decision';
    items.push({
      kind: 'blocked',
      key: `blocked:${lesson.id}:${lesson.blocked.at}`,
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
      key: `interrupted:${task.id}:${task.lease_expires_at ?? ''}`,
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
        key: `stale:${lesson.id}:${lesson.stale.at}`,
        subject: lesson.id,
        text: `lesson ${lesson.id} is stale: ${lesson.stale.reason}`,
        command: `codelabgen state set ${lesson.id} notes --note "redo: ${lesson.stale.reason.replace(/["\\$`]/g, '')}"`,
        tool: { name: 'state_set', arguments: { id: lesson.id, stage: 'notes', note: `redo: ${lesson.stale.reason}` } },
      });
    if (drifted.has(lesson.id))
      items.push({
        kind: 'drifted',
        key: `drifted:${lesson.id}:${lesson.verified?.code_hash ?? ''}`,
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
  const stagesTotal = lessons.length * last;
  const lastMoved = since === null ? null : lastLessonChange(lessons, since);
  // The pace of the moves made so far, measured up to the last one: idle time does not slow it.
  const movingSeconds = since === null || lastMoved === null ? 0 : (Date.parse(lastMoved) - Date.parse(since)) / 1000;
  const perMove = movingSeconds > 0 && stepsDone > 0 ? movingSeconds / stepsDone : null; // seconds
  const hours = since === null ? 0 : (now.getTime() - Date.parse(since)) / 3_600_000;
  const idle = lastMoved === null ? 0 : (now.getTime() - Date.parse(lastMoved)) / 1000;
  const left = stagesTotal - stepsDone;
  return {
    since,
    done,
    done_per_hour: hours > 0 && done > 0 ? done / hours : null,
    stages_done: stepsDone,
    stages_total: stagesTotal,
    stages_left: left,
    last_moved_at: lastMoved,
    eta_seconds: perMove === null ? null : Math.round(left * perMove),
    stalled: left > 0 && lastMoved !== null && idle > Math.max(STALL_SECONDS, 3 * (perMove ?? 0)),
  };
}

/** The latest change of any lesson, not before `since`. */
function lastLessonChange(lessons: LessonState[], since: string): string {
  let latest = since;
  for (const lesson of lessons) if (Date.parse(lesson.updated_at) > Date.parse(latest)) latest = lesson.updated_at;
  return latest;
}

function costOf(spent: Spent, throughput: Throughput, budgets: Budgets): BoardCost {
  const { stages_done, stages_total } = throughput;
  const projected = spent.cost_usd > 0 && stages_done > 0 ? (spent.cost_usd / stages_done) * stages_total : null;
  return {
    spent,
    projected_usd: projected === null ? null : Math.round(projected * 100) / 100,
    budget_usd: budgets.cost_usd ?? null,
    budget_tokens: budgets.tokens ?? null,
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
  const spent = spentSoFar(state);
  const throughput = throughputOf(state, lessons, now);
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
    needs_human: humanItems(input, lessons, interrupted, spent),
    feed: tellRecent(state, input.log.recent).reverse(),
    throughput,
    cost: costOf(spent, throughput, input.budgets),
  };
}
