// Synthetic courses built directly from valid events (for scale and chaos runs): init through the
// real CLI, then a lessons.register event and filler events appended to the log, and state.json
// written from the same pure `apply` replay uses by the store's own writer, so `codelabgen check`
// passes on the result and the CLI reads it as one it wrote.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Event, RegisteredLesson, State } from '../content-schemas/index.ts';
import { apply, courseAt, eventsPath, readStateFile } from '../pipeline/index.ts';
import { writeStateFile } from '../pipeline/store/state-file.ts';
import { replayBatch } from '../pipeline/state/keyed.ts';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'codelabgen.cjs');

export interface StateCourseOptions {
  /** Lessons, spread over modules of `perModule` lessons. */
  lessons: number;
  perModule?: number;
  /** Total events in the log (at least 2: init and register). */
  events?: number;
  /** Write a valid spec.yaml for every lesson (so `state set <id> spec` is accepted). */
  specs?: boolean;
}

export function lessonsFor(count: number, perModule = 10): RegisteredLesson[] {
  return Array.from({ length: count }, (_, index) => {
    const m = Math.floor(index / perModule) + 1;
    const l = (index % perModule) + 1;
    return {
      id: `${m}.${l}`,
      title: `Lesson ${m}.${l}`,
      slug: `lesson-${l}`,
      module_id: String(m),
      module_slug: `module-${m}`,
      module_title: `Module ${m}`,
      dir: `${m}-module-${m}/${m}.${l}-lesson-${l}`,
    };
  });
}

/** Creates a course at `root` with registered lessons and `events` events in its log. */
export function buildStateCourse(root: string, options: StateCourseOptions): State {
  const init = spawnSync(process.execPath, [CLI, 'init', root, '--title', 'Synthetic course'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
  const course = courseAt(root);
  let state = readStateFile(course);
  if (state === null) throw new Error('init wrote no state');
  const lessons = lessonsFor(options.lessons, options.perModule);
  for (const lesson of lessons) mkdirSync(path.join(root, lesson.dir, 'docs'), { recursive: true });
  if (options.specs) for (const lesson of lessons) writeSpec(root, lesson);
  const total = Math.max(2, options.events ?? 2);
  const lines: string[] = [];
  let bytes = state.log_bytes;
  const push = (draft: Record<string, unknown>) => {
    const event = {
      seq: state!.last_seq + 1,
      ts: new Date().toISOString(),
      pid: process.pid,
      command: 'bench',
      ...draft,
    } as Event;
    const line = `${JSON.stringify(event)}\n`;
    lines.push(line);
    bytes += Buffer.byteLength(line);
    state = apply(state, event);
  };
  replayBatch(() => {
    push({ kind: 'lessons.register', lessons, removed: [] });
    for (let n = 3; n <= total; n += 1) push(fillerEvent(n, lessons, state!));
  });
  for (let i = 0; i < lines.length; i += 5000) appendFileSync(eventsPath(course), lines.slice(i, i + 5000).join(''));
  state = { ...state, log_bytes: bytes };
  // As the CLI writes it, with its stamp: a state.json the CLI did not write is fully validated on
  // every read (pipeline/store/state-file.ts), which a real course never pays after its first write.
  writeStateFile(course, state);
  return state;
}

/** Alternates facts and forward/back stage moves between pending and spec. */
function fillerEvent(n: number, lessons: RegisteredLesson[], state: State): Record<string, unknown> {
  const lesson = lessons[n % lessons.length]!;
  if (n % 2 === 0) return { kind: 'log', fact: 'bench-fact', lesson: lesson.id, data: { n: String(n) } };
  const stage = state.lessons[lesson.id]!.stage;
  return stage === 'pending'
    ? { kind: 'lesson.stage', lesson: lesson.id, from: 'pending', to: 'spec', note: null, review_round_used: false }
    : {
        kind: 'lesson.stage',
        lesson: lesson.id,
        from: stage,
        to: 'pending',
        note: 'bench rework',
        review_round_used: false,
      };
}

export function writeSpec(root: string, lesson: RegisteredLesson): void {
  const dir = path.join(root, '.codelabgen', 'lessons', lesson.id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'spec.yaml'),
    `lesson: "${lesson.id}"\ntitle: ${lesson.title}\ngoal: Show one thing well.\nfiles:\n  - path: src/main.js\n    purpose: the example\n`,
  );
}
