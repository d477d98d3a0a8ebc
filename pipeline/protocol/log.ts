// `state log <kind> [--lesson ID] --data key=value ...`: an acknowledged fact as a log event. Pure.
import type { EventDraft, State } from '../../content-schemas/index.ts';
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';
import { getOwn } from '../state/keyed.ts';

const KIND = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A --data key (and a key of MCP state_log's `data`). */
export const DATA_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const KEY = DATA_KEY;
export const MAX_VALUE_CHARS = 64 * 1024;

/** What `state log` is asked, checked before the course is even resolved. */
export interface LogRequest {
  kind: string;
  lesson: string | null;
  data: Record<string, string>;
}

export function parseLogRequest(kind: string, pairs: readonly string[], lesson: string | null): LogRequest {
  if (!KIND.test(kind))
    refuse(
      `state log: kind "${printable(kind)}" must be letters, digits, ".", "_" or "-" (at most 64), e.g. source-unreachable`,
    );
  return { kind, lesson, data: parseDataPairs(pairs) };
}

export function parseDataPairs(pairs: readonly string[]): Record<string, string> {
  const data: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) refuse(`--data "${printable(pair)}": expected key=value`);
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!KEY.test(key)) refuse(`--data key "${printable(key)}": use letters, digits, "_", "." or "-" (at most 64)`);
    // A "__proto__" key would vanish in schema validation (an acknowledged fact silently lost).
    if (key === '__proto__') refuse('--data key "__proto__" is reserved; choose another key');
    if (value.length > MAX_VALUE_CHARS)
      refuse(`--data ${key}: value is ${value.length} characters; the limit is ${MAX_VALUE_CHARS}`);
    if (Object.hasOwn(data, key)) refuse(`--data ${key}: given twice`);
    Object.defineProperty(data, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return data;
}

/** The log event; refused when --lesson names no lesson. */
export function decideLog(state: State, request: LogRequest): EventDraft {
  const { kind, lesson, data } = request;
  if (lesson !== null && getOwn(state.lessons, lesson) === undefined)
    refuse(`unknown lesson "${printable(lesson)}"`, 'list lessons with: codelabgen state show --all');
  return { kind: 'log', fact: kind, lesson, data };
}
