// The summary of many verifications (verify --all, verify merge): one entry per lesson and totals.
import type { RunResult, TestCounts } from '../../content-schemas/index.ts';

export interface SummaryEntry {
  lesson: string;
  /** `error`: the tests could not be run (see cause). */
  status: 'passed' | 'failed' | 'error';
  run: number | null;
  started_at: string | null;
  duration_ms: number | null;
  tests: TestCounts | null;
  exit_code: number | null;
  timed_out: boolean;
  code_hash: string | null;
  cause: string | null;
}

export interface VerifySummary {
  ok: boolean;
  total: number;
  passed: number;
  failed: number;
  errors: number;
  /** Sum of the runs' durations: the wall time one job would have needed. */
  serial_ms: number;
  lessons: SummaryEntry[];
  jobs?: number;
  /** Most runs that were going at once. */
  peak_parallel?: number;
  wall_ms?: number;
  shard?: string | null;
}

export function summaryEntry(lesson: string, result: RunResult | null): SummaryEntry {
  return {
    lesson,
    status: result === null ? 'error' : result.passed ? 'passed' : 'failed',
    run: result?.run ?? null,
    started_at: result?.started_at ?? null,
    duration_ms: result?.duration_ms ?? null,
    tests: result?.tests ?? null,
    exit_code: result?.exit_code ?? null,
    timed_out: result?.timed_out ?? false,
    code_hash: result?.code_hash ?? null,
    cause: result?.cause ?? null,
  };
}

export function summarize(lessons: SummaryEntry[]): VerifySummary {
  const count = (status: SummaryEntry['status']) => lessons.filter((entry) => entry.status === status).length;
  const serial = lessons.reduce((sum, entry) => sum + (entry.duration_ms ?? 0), 0);
  return {
    ok: count('passed') === lessons.length,
    total: lessons.length,
    passed: count('passed'),
    failed: count('failed'),
    errors: count('error'),
    serial_ms: Math.round(serial),
    lessons,
  };
}
