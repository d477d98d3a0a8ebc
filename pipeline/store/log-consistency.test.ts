// The log and the state must agree before anything is written: an event from a newer codelabgen
// is refused (never cut as torn), a state.json ahead of its log is caught even when the sizes
// match, and `state rebuild` writes only the course's own log and keeps a torn line's copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cli, readEvents, readState, scratchCourse, scratchDir, snapshot } from '../../cli/testing.ts';

/** A course with two acknowledged `state log` events after init (seq 1..3). */
function course(): string {
  const root = scratchCourse();
  for (const n of [1, 2]) assert.equal(cli(['state', 'log', 'acked', '--data', `n=${n}`], { cwd: root }).code, 0);
  return root;
}

const file = (root: string, name: string) => path.join(root, '.codelabgen', name);

const NEWER: Array<[string, Record<string, unknown>, string]> = [
  [
    'an unknown kind',
    { kind: 'lesson.teleport', lesson: '1.1' },
    'event kind "lesson.teleport", unknown to this codelabgen (event schema_version 1)',
  ],
  [
    'a newer schema_version',
    { kind: 'log', schema_version: 2, fact: 'x', lesson: null, data: {} },
    'event schema_version 2, newer than the 1 this codelabgen reads',
  ],
];

for (const [name, fields, problem] of NEWER) {
  test(`a complete event with ${name} is refused by every command naming its line, never cut as torn`, () => {
    const root = course();
    appendFileSync(
      file(root, 'events.jsonl'),
      `${JSON.stringify({ seq: 4, ts: '2030-01-01T00:00:00.000Z', pid: 1, command: 'codelabgen (newer)', ...fields })}\n`,
    );
    const before = snapshot(root);
    const error = `error: .codelabgen/events.jsonl line 4 (seq 4) was written by a newer codelabgen: ${problem}; nothing was changed`;
    for (const args of [
      ['state', 'show'],
      ['state', 'next'],
      ['state', 'log', 'x'],
      ['state', 'rebuild'],
    ]) {
      const result = cli(args, { cwd: root });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, `${error}\nhint: upgrade codelabgen to a version that reads it\n`, args.join(' '));
    }
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 1, check.stderr);
    assert.ok(check.stdout.includes(error.slice('error: '.length)), check.stdout);
    assert.deepEqual(snapshot(root), before, 'nothing moved aside, nothing cut, nothing appended');
  });
}

test('state.json ahead of its log (last_seq ahead, log_bytes equal to the log size): refused, never a seq gap', () => {
  const root = course();
  writeFileSync(
    file(root, 'state.json'),
    readFileSync(file(root, 'state.json'), 'utf8').replace('"last_seq":3', '"last_seq":5'),
  );
  const before = snapshot(root);
  for (const args of [
    ['state', 'log', 'x'],
    ['state', 'show'],
  ]) {
    const result = cli(args, { cwd: root });
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(
      result.stderr,
      'error: .codelabgen/state.json is at seq 5 but .codelabgen/events.jsonl ends at seq 3\nhint: run ' +
        '"codelabgen state rebuild" to rebuild the state from the log\n',
    );
  }
  assert.deepEqual(snapshot(root), before);
  assert.equal(cli(['state', 'rebuild'], { cwd: root }).code, 0);
  assert.equal(cli(['state', 'log', 'after'], { cwd: root }).code, 0);
  assert.deepEqual(
    readEvents(root).map((event) => event.seq),
    [1, 2, 3, 4],
  );
  assert.equal(readState(root).last_seq, 4);
  assert.equal(cli(['check'], { cwd: root }).code, 0);
});

test('state rebuild refuses a symlinked events.jsonl and leaves the file it points to alone', () => {
  const root = course();
  const outside = path.join(scratchDir('codelabgen-outside-'), 'other-events.jsonl');
  renameSync(file(root, 'events.jsonl'), outside);
  appendFileSync(outside, '{"seq":4,"ts":"2026-');
  symlinkSync(outside, file(root, 'events.jsonl'));
  const target = readFileSync(outside);
  const before = snapshot(root);
  const result = cli(['state', 'rebuild'], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^error: \.codelabgen\/events\.jsonl is a symbolic link; the store writes only regular files inside the course\n/,
  );
  assert.deepEqual(readFileSync(outside), target, 'the other log keeps its last line');
  assert.deepEqual(snapshot(root), before);
});

test('state rebuild keeps a copy of the torn last line it cuts, as recovery does', () => {
  const root = course();
  appendFileSync(file(root, 'events.jsonl'), '{"seq":4');
  const result = cli(['state', 'rebuild'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /^warning: cut a torn last line \(8 bytes\) off \.codelabgen\/events\.jsonl; moved to \.codelabgen\/events\.jsonl\.torn-\d+\n$/,
  );
  const copies = readdirSync(path.join(root, '.codelabgen')).filter((name) => name.startsWith('events.jsonl.torn-'));
  assert.equal(copies.length, 1);
  assert.equal(readFileSync(file(root, copies[0] ?? ''), 'utf8'), '{"seq":4');
  assert.equal(cli(['check'], { cwd: root }).code, 0);
});
