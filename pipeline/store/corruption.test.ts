// Damaged and hostile input: corrupt or truncated state.json, a torn last log line, a corrupt middle
// line, a newer schema_version, hostile ids and --data keys, an invalid config.yaml. Each gets its
// documented refusal (or recovery), and nothing is ever written outside .codelabgen/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ackedCourse, cli, readEvents, snapshot, type CliResult } from '../../cli/testing.ts';

/** A course with two acknowledged `state log` events after init (a copy of one made per run). */
const course = (): string => ackedCourse(2);

const file = (root: string, name: string) => path.join(root, '.codelabgen', name);

function outside(root: string): Map<string, string> {
  const files = snapshot(root);
  for (const key of files.keys()) if (key.startsWith('.codelabgen/')) files.delete(key);
  return files;
}

function assertRefused(result: CliResult, message: RegExp): void {
  assert.equal(result.code, 2, `expected exit 2, got ${result.code}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const [first, ...rest] = result.stderr.trimEnd().split('\n');
  assert.match(first ?? '', message);
  assert.ok(
    rest.every((line) => line.startsWith('hint: ')),
    result.stderr,
  );
}

for (const [name, damage] of [
  ['corrupt', (text: string) => text.replace('{', '{{')],
  ['truncated', (text: string) => text.slice(0, Math.floor(text.length / 2))],
  ['schema-invalid', (text: string) => text.replace('"phase":"init"', '"phase": "nowhere"')],
] as const) {
  test(`a ${name} state.json is copied aside, refused with the rebuild command named, and rebuild works`, () => {
    const root = course();
    writeFileSync(path.join(root, 'notes.txt'), 'author file');
    const good = readFileSync(file(root, 'state.json'), 'utf8');
    const bad = damage(good);
    writeFileSync(file(root, 'state.json'), bad);
    const events = readFileSync(file(root, 'events.jsonl'));
    const outsideBefore = outside(root);
    for (const args of [
      ['state', 'show'],
      ['state', 'log', 'x'],
    ]) {
      const result = cli(args, { cwd: root });
      assertRefused(
        result,
        /^error: \.codelabgen\/state\.json is unreadable: .*; a copy is kept as \.codelabgen\/state\.corrupt-[0-9a-f]{12}\.json$/,
      );
      assert.match(
        result.stderr,
        /^hint: run "codelabgen state rebuild" to rebuild it from \.codelabgen\/events\.jsonl$/m,
      );
    }
    const copies = readdirSync(path.join(root, '.codelabgen')).filter((entry) =>
      /^state\.corrupt-[0-9a-f]{12}\.json$/.test(entry),
    );
    assert.equal(copies.length, 1);
    assert.equal(readFileSync(file(root, copies[0] ?? ''), 'utf8'), bad, 'the copy is the damaged file, byte for byte');
    assert.deepEqual(readFileSync(file(root, 'events.jsonl')), events);
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 1, 'check reports the problem (exit 1), it does not refuse');
    assert.match(check.stdout, /state\.json is unreadable/);
    const rebuilt = cli(['state', 'rebuild'], { cwd: root });
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal(readFileSync(file(root, 'state.json'), 'utf8'), good);
    assert.equal(cli(['check'], { cwd: root }).code, 0);
    assert.deepEqual(outside(root), outsideBefore);
  });
}

test('a newer schema_version is refused by every command, never coerced or overwritten', () => {
  const root = course();
  const newer = readFileSync(file(root, 'state.json'), 'utf8').replace('"schema_version":1', '"schema_version": 2');
  writeFileSync(file(root, 'state.json'), newer);
  const before = snapshot(root);
  for (const args of [
    ['state', 'show', '--json'],
    ['state', 'log', 'x'],
    ['state', 'rebuild'],
    ['init', '.', '--title', 'T'],
  ]) {
    const result = cli(args, { cwd: root });
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
  }
  const result = cli(['state', 'log', 'x'], { cwd: root });
  assertRefused(
    result,
    /^error: \.codelabgen\/state\.json has schema_version 2, newer than the 1 this codelabgen reads; nothing was changed$/,
  );
  assert.match(result.stderr, /^hint: upgrade codelabgen to a version that reads it$/m);
  assert.equal(cli(['check'], { cwd: root }).code, 1);
  assert.deepEqual(snapshot(root), before, 'state.json untouched, no copy made');
});

for (const command of [['state', 'log', 'after'], ['state', 'show'], ['check']]) {
  test(`a torn last log line is moved aside and reported by \`${command.join(' ')}\``, () => {
    const root = course();
    appendFileSync(file(root, 'events.jsonl'), '{"seq":4,"ts":"2026-');
    const result = cli(command, { cwd: root });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        String.raw`^warning: recovered: the last line of \.codelabgen\/events\.jsonl was torn \(20 bytes, an interrupted ` +
          String.raw`write\); moved to \.codelabgen\/events\.jsonl\.torn-\d+\n$`,
      ),
    );
    const aside = readdirSync(path.join(root, '.codelabgen')).filter((name) => name.startsWith('events.jsonl.torn-'));
    assert.equal(readFileSync(file(root, aside[0] ?? ''), 'utf8'), '{"seq":4,"ts":"2026-');
    assert.deepEqual(
      readEvents(root).map((event) => event.seq),
      command[0] === 'state' && command[1] === 'log' ? [1, 2, 3, 4] : [1, 2, 3],
    );
    assert.equal(cli(['check'], { cwd: root }).code, 0);
  });
}

test('state rebuild cuts a torn last line off and says so', () => {
  const root = course();
  appendFileSync(file(root, 'events.jsonl'), '{"seq":4');
  const result = cli(['state', 'rebuild'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /^warning: cut a torn last line \(8 bytes\) off \.codelabgen\/events\.jsonl; moved to \.codelabgen\/events\.jsonl\.torn-\d+\n$/,
  );
  assert.equal(cli(['check'], { cwd: root }).code, 0);
});

for (const [name, corrupt] of [
  ['not JSON', () => '{garbage'],
  ['a seq gap', (line: string) => line.replace('"seq":2', '"seq":7')],
] as const) {
  test(`a corrupt middle log line (${name}) refuses writes naming the line; check exits 1`, () => {
    const root = course();
    const lines = readFileSync(file(root, 'events.jsonl'), 'utf8').split('\n');
    lines[1] = corrupt(lines[1] ?? '');
    writeFileSync(file(root, 'events.jsonl'), lines.join('\n'));
    writeFileSync(
      file(root, 'state.json'),
      readFileSync(file(root, 'state.json'), 'utf8').replace(/"log_bytes":\d+/, '"log_bytes": 1'),
    );
    const before = snapshot(root);
    const result = cli(['state', 'log', 'x'], { cwd: root });
    assertRefused(
      result,
      /^error: \.codelabgen\/events\.jsonl line 2 is corrupt \(.+\); writes are refused until it is repaired$/,
    );
    assert.match(result.stderr, /^hint: run "codelabgen check" for the details/m);
    assertRefused(
      cli(['state', 'rebuild'], { cwd: root }),
      /^error: \.codelabgen\/events\.jsonl line 2 is corrupt .*; cannot rebuild past it$/,
    );
    const check = cli(['check'], { cwd: root });
    assert.equal(check.code, 1);
    assert.match(check.stdout, /\.codelabgen\/events\.jsonl line 2: /);
    assert.deepEqual(snapshot(root), before);
  });
}

// Recovery checks framing and seq continuity of lines already applied (cheap); `check` validates
// every line against the event schema.
test('check names a middle log line that is valid JSON but not a valid event', () => {
  const root = course();
  const lines = readFileSync(file(root, 'events.jsonl'), 'utf8').split('\n');
  lines[1] = (lines[1] ?? '').replace('"fact":"acked"', '"fact":"no spaces allowed"'); // a known kind, an invalid field
  writeFileSync(file(root, 'events.jsonl'), lines.join('\n'));
  const check = cli(['check'], { cwd: root });
  assert.equal(check.code, 1);
  assert.match(check.stdout, /\.codelabgen\/events\.jsonl line 2: invalid event: fact: /);
});

const HOSTILE_IDS = [
  '../x',
  '/abs',
  '__proto__',
  'constructor',
  'toString',
  'a'.repeat(300),
  'a\nb',
  'a\u0001b',
  '-rf',
  '1.1/../../etc',
];

test('hostile --lesson ids are refused as unknown lessons, echoed safely, nothing written', () => {
  const root = course();
  const before = snapshot(root);
  for (const id of HOSTILE_IDS) {
    const result = cli(['state', 'log', 'k', `--lesson=${id}`], { cwd: root });
    assertRefused(result, /^error: unknown lesson "[^\n]*"$/);
    assert.ok(
      !result.stderr.includes('\u0001') && result.stderr.split('\n')[0]!.length < 200,
      `unsafe echo: ${JSON.stringify(result.stderr)}`,
    );
  }
  assert.deepEqual(snapshot(root), before);
});

test('hostile --data keys are refused; hostile values are stored as data, never as paths', () => {
  const root = course();
  const before = snapshot(root);
  for (const key of ['../x', '/abs', '__proto__', 'a'.repeat(300), 'a\nb', 'a b', '']) {
    assertRefused(
      cli(['state', 'log', 'k', '--data', `${key}=1`], { cwd: root }),
      /^error: --data (key "[^\n]*": use letters|key "__proto__" is reserved|"[^\n]*": expected key=value)/,
    );
  }
  assert.deepEqual(snapshot(root), before);
  const outsideBefore = outside(root);
  const values = { constructor: '../../etc/passwd', toString: '/abs', prototype: 'a\u0001\nb' };
  const pairs = Object.entries(values).flatMap(([key, value]) => ['--data', `${key}=${value}`]);
  const result = cli(['state', 'log', 'k', ...pairs], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(readEvents(root).at(-1)?.data, values);
  assert.deepEqual(outside(root), outsideBefore, 'values that look like paths created nothing');
  assert.equal(cli(['check'], { cwd: root }).code, 0);
});

test('an invalid YAML config.yaml is refused naming the file by commands that read it', () => {
  const root = course();
  writeFileSync(file(root, 'config.yaml'), 'budgets: [1, 2\nruntime: {');
  const before = snapshot(root);
  const result = cli(['state', 'next'], { cwd: root });
  assertRefused(result, /^error: \.codelabgen\/config\.yaml: invalid YAML: /);
  writeFileSync(file(root, 'config.yaml'), 'schema_version: 1\nbudgets:\n  fix_attempts: many\n');
  assertRefused(cli(['state', 'next'], { cwd: root }), /^error: \.codelabgen\/config\.yaml: budgets\.fix_attempts: /);
  writeFileSync(file(root, 'config.yaml'), 'budgets: [1, 2\nruntime: {');
  assert.deepEqual(snapshot(root), before);
});
