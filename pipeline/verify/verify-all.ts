// `verify --all`: choose lessons (stage filter, CI shard), verify them with a pool of jobs, and
// summarize. Progress goes out through a callback the CLI renders; nothing here prints.
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import type { Stage, State } from '../../content-schemas/index.ts';
import { stageIndex } from '../../content-schemas/fast.ts';
import { printable } from '../course/course.ts';
import type { Course } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { getOwn } from '../state/keyed.ts';
import { summarize, summaryEntry, type VerifySummary, type SummaryEntry } from './summary.ts';
import { writeRunResult } from './runs.ts';
import {
  chooseVerifySandbox,
  recordVerdict,
  runLesson,
  type UnrecordedRun,
  warnAboutSandbox,
  type VerifyOptions,
} from './verify-lesson.ts';

export interface Shard {
  index: number;
  count: number;
}

export interface Selection {
  stageAtLeast?: Stage | undefined;
  /** Only lessons at code, not blocked (they can take a verdict). */
  updateState: boolean;
  shard?: Shard | undefined;
}

export function defaultJobs(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/** `K/N` with 1 <= K <= N. */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    refuse(`--shard "${printable(text)}": expected K/N with 1 <= K <= N, e.g. 2/4`);
  return { index, count };
}

/**
 * Lessons to verify, in curriculum order: at `stageAtLeast` or later (default verified), or with
 * updateState only those at code and not blocked; then shard K of N takes every Nth (index mod N).
 */
export function selectLessons(state: State, selection: Selection): string[] {
  const least = stageIndex(selection.stageAtLeast ?? (selection.updateState ? 'code' : 'verified'));
  const chosen = state.lesson_order.filter((id) => {
    const lesson = getOwn(state.lessons, id);
    if (lesson === undefined || stageIndex(lesson.stage) < least) return false;
    return !selection.updateState || (lesson.stage === 'code' && lesson.blocked === null);
  });
  return selection.shard ? shardOf(chosen, selection.shard) : chosen;
}

export function shardOf<T>(items: readonly T[], shard: Shard): T[] {
  return items.filter((_, position) => position % shard.count === shard.index - 1);
}

export type Progress =
  | { kind: 'start'; lesson: string; done: number; total: number }
  | { kind: 'end'; entry: SummaryEntry; done: number; total: number };

export interface VerifyAllOptions extends VerifyOptions {
  jobs: number;
  updateState: boolean;
  commandLine: string;
  shard?: Shard | undefined;
  onProgress?: (progress: Progress) => void;
}

/** Verifies `ids` with up to `jobs` at once; a lesson that cannot run is an `error` entry, not a stop. */
export async function verifyAll(
  course: Course,
  state: State,
  ids: readonly string[],
  options: VerifyAllOptions,
): Promise<VerifySummary> {
  // verify.sandbox: required refuses here, before any lesson runs; an auto fallback or an `off` not honoured is told once.
  const sandbox = options.sandbox ?? chooseVerifySandbox(options);
  warnAboutSandbox(sandbox, options);
  const each = { ...options, sandbox };
  const start = performance.now();
  const entries = new Map<string, SummaryEntry>();
  const running = new Set<string>();
  let peak = 0;
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      running.add(id);
      peak = Math.max(peak, running.size);
      options.onProgress?.({ kind: 'start', lesson: id, done: entries.size, total: ids.length });
      const entry = await verifyOne(course, state, id, each);
      running.delete(id);
      entries.set(id, entry);
      options.onProgress?.({ kind: 'end', entry, done: entries.size, total: ids.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, Math.max(1, ids.length)) }, worker));
  const summary = summarize(ids.map((id) => entries.get(id)!));
  return {
    ...summary,
    jobs: options.jobs,
    peak_parallel: peak,
    wall_ms: Math.round(performance.now() - start),
    shard: options.shard ? `${options.shard.index}/${options.shard.count}` : null,
  };
}

async function verifyOne(course: Course, state: State, id: string, options: VerifyAllOptions): Promise<SummaryEntry> {
  let unrecorded: UnrecordedRun;
  try {
    unrecorded = await runLesson(course, state, id, options);
    if (!options.updateState) return summaryEntry(id, writeRunResult(course, unrecorded));
  } catch (error) {
    return { ...summaryEntry(id, null), status: 'error', cause: (error as Error).message.split('\n')[0] ?? 'error' };
  }
  try {
    // The run-result and its verdict are one all-or-nothing change: a verdict not recorded leaves no run-result.
    const { result } = await recordVerdict(course, unrecorded, options.config.budgets, options.commandLine);
    return summaryEntry(id, result);
  } catch (error) {
    return {
      ...summaryEntry(id, null),
      status: 'error',
      cause: `verdict not recorded, nor its run: ${(error as Error).message.split('\n')[0]}`,
    };
  }
}
