// Small text pieces shared by the report's story, its markdown and its summaries. Pure.
import type { TestCounts } from '../../content-schemas/index.ts';
import { escapeControl } from '../course/course.ts';

/**
 * Course data (titles, notes, reasons, test names and messages) as inline markdown text: one line,
 * control characters shown escaped, and every character markdown or HTML would act on
 * backslash-escaped, so `<script>`, `<img onerror>` or `[x](javascript:...)` read as written on
 * GitHub, in editors and to agents. The one escaping function of report.md.
 */
export function markdownText(text: string): string {
  return escapeControl(text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')).replace(/[\\`*_[\]<>|~#&]/g, '\\$&');
}

/** A line of a fenced `text` block: control characters escaped, no fence can close early. */
export function codeBlockLine(text: string): string {
  return escapeControl(text).replace(/```/g, "'''").replace(/~~~/g, "'''");
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h ${minutes % 60}m` : `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

/** A timestamp as the report prints it: `2026-01-01 00:05:00Z`. */
export const clockText = (at: string) => at.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z');

export function testsText(tests: TestCounts): string {
  return `${tests.passed}/${tests.total} tests passed${tests.failed > 0 ? `, ${tests.failed} failed` : ''}`;
}

/** A rate as a whole percentage, or "-" when there is nothing to divide. */
export function percent(rate: number | null): string {
  return rate === null ? '-' : `${Math.round(rate * 100)}%`;
}

export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
