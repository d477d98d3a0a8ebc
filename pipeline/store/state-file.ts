// state.json: read with schema_version checks (newer refused, never coerced); an unreadable file is
// copied aside as state.corrupt-<hash>.json and the refusal names the recovery command.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { State } from '../../content-schemas/index.ts';
import { StateParser, STATE_SCHEMA_VERSION, issuesToProblems } from '../../content-schemas/fast.ts';
import { ARTIFACTS, abs, type Course } from '../course.ts';
import { RefusalError, errorCode } from '../errors.ts';
import { writeFileAtomic } from './atomic-write.ts';

export function statePath(course: Course): string {
  return abs(course, ARTIFACTS.state);
}

export function eventsPath(course: Course): string {
  return abs(course, ARTIFACTS.events);
}

/** The stored state, or null when the course has no state.json (and no events: see readState). */
export function readStateFile(course: Course): State | null {
  const file = statePath(course);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw corruptState(course, bytes, `not valid JSON (${(error as Error).message})`);
  }
  const version = refuseNewerVersion(raw);
  if (version !== STATE_SCHEMA_VERSION) {
    throw corruptState(course, bytes, `unknown schema_version ${JSON.stringify(version) ?? 'missing'}`);
  }
  const result = StateParser.safeParse(raw);
  if (!result.success) throw corruptState(course, bytes, issuesToProblems(result.error.issues).slice(0, 3).join('; '));
  return result.data;
}

/** Returns the state's schema_version; refuses a newer one (never coerced, never overwritten). */
function refuseNewerVersion(raw: unknown): unknown {
  const version = typeof raw === 'object' && raw !== null ? (raw as { schema_version?: unknown }).schema_version : undefined;
  if (typeof version === 'number' && version > STATE_SCHEMA_VERSION) {
    throw new RefusalError(`${ARTIFACTS.state} has schema_version ${version}, newer than the ${STATE_SCHEMA_VERSION} this codelabgen reads; nothing was changed`, ['upgrade codelabgen to a version that reads it']);
  }
  return version;
}

/** For `state rebuild`: refuses to overwrite a state.json written by a newer codelabgen. */
export function refuseNewerStateFile(course: Course): void {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(statePath(course), 'utf8'));
  } catch {
    return; // missing or unreadable: exactly what a rebuild replaces
  }
  refuseNewerVersion(raw);
}

function corruptState(course: Course, bytes: Buffer, reason: string): RefusalError {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const copy = path.join(course.dir, `state.corrupt-${hash}.json`);
  let kept = `a copy is kept as ${path.relative(course.root, copy)}`;
  try {
    if (!existsSync(copy)) copyFileSync(statePath(course), copy);
  } catch (error) {
    kept = `it could not be copied aside (${errorCode(error) ?? 'error'})`;
  }
  return new RefusalError(`${ARTIFACTS.state} is unreadable: ${reason}; ${kept}`, [`run "codelabgen state rebuild" to rebuild it from ${ARTIFACTS.events}`]);
}

export function writeStateFile(course: Course, state: State, faults = false): void {
  writeFileAtomic(statePath(course), `${JSON.stringify(state, null, 1)}\n`, faults);
}
