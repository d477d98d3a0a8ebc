// state.json.written: the CLI records the identity (device, inode, size, modification and change
// times) of each state.json it writes and skips the schema check only while the file is still that
// one. A hand-edited state.json is checked in full and refused word for word as before the record
// existed (the messages below are the ones zod gave then).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cli, scratchCourse, snapshot } from '../../cli/testing.ts';
import { courseAt } from '../course/course.ts';
import { readStateFile, writeStateFile } from './state-file.ts';

const stateFile = (root: string) => path.join(root, '.codelabgen', 'state.json');
const sumFile = (root: string) => path.join(root, '.codelabgen', 'state.json.written');
const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
const stamp = (root: string) => {
  const stats = statSync(stateFile(root), { bigint: true });
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}\n`;
};

test('every state.json the CLI writes has its identity recorded beside it', () => {
  const root = scratchCourse('Checksum course');
  assert.notEqual(readFileSync(sumFile(root), 'utf8'), stamp(root), 'a copied course is another file: checked in full');
  assert.equal(cli(['state', 'log', 'fact', '--data', 'k=v'], { cwd: root }).code, 0);
  assert.equal(readFileSync(sumFile(root), 'utf8'), stamp(root), 'after a change');
});

test('a same-size edit in place, with the modification time put back to the ns, gets the full check', () => {
  const root = scratchCourse('Checksum course');
  assert.equal(cli(['state', 'log', 'fact'], { cwd: root }).code, 0);
  const before = statSync(stateFile(root), { bigint: true });
  writeFileSync(stateFile(root), readFileSync(stateFile(root), 'utf8').replace('"phase":"init"', '"phase":"xxxx"'));
  const at = `@${before.mtimeNs / 1_000_000_000n}.${String(before.mtimeNs % 1_000_000_000n).padStart(9, '0')}`;
  assert.equal(spawnSync('touch', ['-m', '-d', at, stateFile(root)]).status, 0, 'GNU touch sets the time to the ns');
  const after = statSync(stateFile(root), { bigint: true });
  assert.deepEqual(
    [after.ino, after.size, after.mtimeNs],
    [before.ino, before.size, before.mtimeNs],
    'only the change time tells the edit',
  );
  const result = cli(['state', 'show', '--json'], { cwd: root });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /^error: \.codelabgen\/state\.json is unreadable: phase: Invalid option/);
});

const PHASES =
  '"init"|"recon"|"sources"|"gate_sources"|"topics"|"curriculum"|"gate_plan"|"scaffold"|"lessons"|"assembly"|"done"';

for (const [name, edit, problems] of [
  [
    'an unknown phase',
    (text: string) => text.replace('"phase":"init"', '"phase": "nowhere"'),
    `phase: Invalid option: expected one of ${PHASES}`,
  ],
  [
    'an empty title',
    (text: string) => text.replace('"title":"Checksum course"', '"title": ""'),
    'title: Too small: expected string to have >=1 characters',
  ],
  [
    'a fraction and an unknown field',
    (text: string) => text.replace('"task_counter":0', '"task_counter": 1.5, "extra": true'),
    'task_counter: Invalid input: expected int, received number; (top level): unknown field "extra"',
  ],
  [
    'a date that is not ISO 8601',
    (text: string) => text.replace(/"created_at":"[^"]*"/, '"created_at": "yesterday"'),
    'created_at: Invalid ISO datetime',
  ],
] as const) {
  test(`a hand-edited state.json with ${name} gets the full check and today's refusal, and nothing changes`, () => {
    const root = scratchCourse('Checksum course');
    const bad = edit(readFileSync(stateFile(root), 'utf8'));
    writeFileSync(stateFile(root), bad);
    const before = snapshot(root);
    for (const args of [
      ['state', 'show', '--json'],
      ['state', 'next'],
      ['state', 'log', 'x'],
    ]) {
      const result = cli(args, { cwd: root });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '');
      const copy = `.codelabgen/state.corrupt-${sha256(bad).slice(0, 12)}.json`;
      assert.equal(
        result.stderr.split('\n')[0],
        `error: .codelabgen/state.json is unreadable: ${problems}; a copy is kept as ${copy}`,
      );
    }
    const after = snapshot(root);
    for (const key of after.keys()) if (key.startsWith('.codelabgen/state.corrupt-')) after.delete(key);
    assert.deepEqual(after, before, 'a refusal changes nothing (beyond the copy kept aside)');
  });
}

test('a valid hand edit is checked and accepted; the next change records its own hash', () => {
  const root = scratchCourse('Checksum course');
  writeFileSync(
    stateFile(root),
    readFileSync(stateFile(root), 'utf8').replace('"title":"Checksum course"', '"title": "Edited by hand"'),
  );
  const shown = cli(['state', 'show', '--json'], { cwd: root });
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(JSON.parse(shown.stdout).title, 'Edited by hand');
  assert.equal(cli(['state', 'log', 'fact'], { cwd: root }).code, 0);
  assert.equal(readFileSync(sumFile(root), 'utf8'), stamp(root));
});

test('check validates state.json in full even when its identity matches', () => {
  const root = scratchCourse('Checksum course');
  const course = courseAt(root);
  writeStateFile(course, { ...readStateFile(course)!, title: '' });
  const result = cli(['check'], { cwd: root });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /state\.json is unreadable: title: Too small: expected string to have >=1 characters/);
});

test('only the file matching the recorded identity skips the check (a missing or torn record means a full check)', () => {
  const root = scratchCourse('Checksum course');
  const course = courseAt(root);
  const state = readStateFile(course)!;
  const invalid = { ...state, phase: 'nowhere' } as unknown as typeof state;
  writeStateFile(course, invalid);
  assert.equal(
    readStateFile(course)?.phase,
    'nowhere',
    'the identity matches: the file is the one writeStateFile wrote',
  );
  for (const sum of [null, 'torn', stamp(root).replace(/:\d+\n$/, ':0\n')]) {
    if (sum === null) writeFileSync(sumFile(root), '');
    else writeFileSync(sumFile(root), sum);
    assert.throws(() => readStateFile(course), /state\.json is unreadable: phase: Invalid option/);
  }
});

test('state show --json prints the state.json the store wrote as it is, and a state it had to check or recover serialized', () => {
  const root = scratchCourse('Checksum course');
  assert.equal(cli(['state', 'log', 'fact'], { cwd: root }).code, 0);
  const shown = cli(['state', 'show', '--json'], { cwd: root });
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout, readFileSync(stateFile(root), 'utf8'), 'the stored text, byte for byte');
  // A valid hand edit that changes only the layout: checked in full, then printed from the checked state.
  const state = JSON.parse(readFileSync(stateFile(root), 'utf8'));
  writeFileSync(stateFile(root), JSON.stringify(state, null, 4));
  const edited = cli(['state', 'show', '--json'], { cwd: root });
  assert.equal(edited.code, 0, edited.stderr);
  assert.notEqual(edited.stdout, readFileSync(stateFile(root), 'utf8'));
  assert.deepEqual(JSON.parse(edited.stdout), state);
  // An event the state has not applied: recovered, and the recovered state is printed.
  assert.equal(cli(['state', 'log', 'fact2'], { cwd: root }).code, 0);
  const before = readFileSync(stateFile(root), 'utf8');
  const log = path.join(root, '.codelabgen', 'events.jsonl');
  const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1)!);
  writeFileSync(log, `${lines.join('\n')}\n${JSON.stringify({ ...last, seq: last.seq + 1, fact: 'fact3' })}\n`);
  const recovered = cli(['state', 'show', '--json'], { cwd: root });
  assert.equal(recovered.code, 0, recovered.stderr);
  assert.equal(JSON.parse(recovered.stdout).last_seq, last.seq + 1);
  assert.notEqual(recovered.stdout, before);
});
