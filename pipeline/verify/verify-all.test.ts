// Lesson selection for verify --all: stage filter, --update-state, and deterministic CI shards.
import assert from 'node:assert/strict';
import test from 'node:test';
import type { LessonState, Stage, State } from '../../content-schemas/index.ts';
import { RefusalError } from '../course/errors.ts';
import { registeredLesson } from './fixtures.ts';
import { parseStage } from '../protocol/lessons.ts';
import { parseShard, selectLessons, shardOf } from './verify-all.ts';

function stateWith(stages: Array<[string, Stage, boolean?]>): State {
  const lessons: Record<string, LessonState> = {};
  for (const [id, stage, blocked] of stages) {
    lessons[id] = {
      ...registeredLesson(id),
      stage,
      blocked: blocked ? { reason: 'x', by: 'user', at: '2026-01-01T00:00:00.000Z' } : null,
      stale: null,
      fix_attempts_used: 0,
      fix_budget_resets: 0,
      review_rounds_used: 0,
      verified: null,
      last_failure: null,
      updated_at: '2026-01-01T00:00:00.000Z',
    };
  }
  return { lesson_order: stages.map(([id]) => id), lessons } as unknown as State;
}

const state = stateWith([
  ['1.1', 'done'],
  ['1.2', 'code'],
  ['1.3', 'verified'],
  ['2.1', 'spec'],
  ['2.2', 'reviewed'],
  ['2.3', 'code', true],
]);

test('default: lessons at verified or later, in curriculum order', () => {
  assert.deepEqual(selectLessons(state, { updateState: false }), ['1.1', '1.3', '2.2']);
});

test('--stage-at-least widens or narrows the selection', () => {
  assert.deepEqual(selectLessons(state, { updateState: false, stageAtLeast: 'code' }), [
    '1.1',
    '1.2',
    '1.3',
    '2.2',
    '2.3',
  ]);
  assert.deepEqual(selectLessons(state, { updateState: false, stageAtLeast: 'reviewed' }), ['1.1', '2.2']);
});

test('--update-state: only lessons at code that are not blocked', () => {
  assert.deepEqual(selectLessons(state, { updateState: true }), ['1.2']);
});

test('shards 1/N..N/N cover every lesson exactly once, for N = 1..7', () => {
  const ids = Array.from({ length: 23 }, (_, index) => `l${index}`);
  for (let count = 1; count <= 7; count += 1) {
    const seen = Array.from({ length: count }, (_, index) => shardOf(ids, { index: index + 1, count })).flat();
    assert.deepEqual([...seen].sort(), [...ids].sort(), `N=${count}`);
    assert.equal(new Set(seen).size, ids.length);
  }
  assert.deepEqual(shardOf(ids.slice(0, 7), { index: 2, count: 3 }), ['l1', 'l4']);
});

test('--shard and --stage-at-least values are checked', () => {
  assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
  for (const bad of ['0/3', '4/3', '3', '1/0', 'a/b', '1/3/4', '-1/3']) {
    assert.throws(
      () => parseShard(bad),
      (error: unknown) =>
        error instanceof RefusalError && error.message.startsWith(`--shard "${bad}": expected K/N with 1 <= K <= N`),
    );
  }
  assert.equal(parseStage('notes', '--stage-at-least'), 'notes');
  assert.throws(
    () => parseStage('finished', '--stage-at-least'),
    /--stage-at-least "finished": expected one of pending, spec, code, verified, readalong, notes, reviewed, done/,
  );
});
