// The foundation commands end to end through the real CLI: init, state show, state log, schema,
// check, state rebuild, and course resolution (--course, $CODELABGEN_COURSE, nearest ancestor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SCHEMA_NAMES, StateSchema } from '../content-schemas/index.ts';
import { cli, exists, readEvents, readState, scratchCourse, scratchDir, snapshot, type CliResult } from './testing.ts';

const course = (): string => scratchCourse();

const scratch = (): string => scratchDir();

/** Exit 2, nothing on stdout, exactly one `error:` line then only `hint:` lines. */
function assertRefused(result: CliResult, message: RegExp): void {
  assert.equal(result.code, 2, `expected exit 2, got ${result.code}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const [first, ...rest] = result.stderr.trimEnd().split('\n');
  assert.match(first ?? '', message);
  assert.ok(
    rest.every((line) => line.startsWith('hint: ')),
    `more than one error line:\n${result.stderr}`,
  );
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

test('init creates .codelabgen with config, state (and its hash) and the course.init event, a .gitignore, and nothing else', () => {
  const dir = scratch();
  const root = path.join(dir, 'streams');
  const result = cli(['init', 'streams', '--title', ' Node streams ', '--topic', 'streams in depth'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.equal(
    result.stdout,
    `Created course "Node streams" in ${root}\nwrote .gitignore: commit .codelabgen/ (config, curriculum, ` +
      `state, events, lesson specs, verify runs); its lock, state.json.written and notification records stay ` +
      `local\nnext: codelabgen state phase recon --course ${root}\n`,
  );
  assert.deepEqual([...snapshot(root).keys()].sort(), [
    '.codelabgen/config.yaml',
    '.codelabgen/events.jsonl',
    '.codelabgen/state.json',
    '.codelabgen/state.json.written',
    '.gitignore',
  ]);
  assert.match(
    readFileSync(path.join(root, '.gitignore'), 'utf8'),
    /^\.codelabgen\/lock\n\.codelabgen\/state\.json\.written$/m,
  );
  const [init, ...more] = readEvents(root);
  assert.equal(more.length, 0);
  assert.equal(init?.kind, 'course.init');
  assert.equal(init?.seq, 1);
  assert.match(String(init?.ts), ISO);
  assert.equal(typeof init?.pid, 'number');
  assert.equal(init?.command, 'codelabgen init streams --title  Node streams  --topic streams in depth');
  assert.deepEqual([init?.title, init?.topic], ['Node streams', 'streams in depth']);
  const state = StateSchema.parse(readState(root));
  assert.deepEqual(
    [state.title, state.topic, state.phase, state.last_seq, state.log_bytes],
    ['Node streams', 'streams in depth', 'init', 1, readFileSync(path.join(root, '.codelabgen/events.jsonl')).length],
  );
  assert.match(readFileSync(path.join(root, '.codelabgen/config.yaml'), 'utf8'), /^schema_version: 1$/m);
});

test('init without DIR uses the working directory; --json answers for agents', () => {
  const dir = scratch();
  const result = cli(['init', '--title', 'Here', '--json'], { cwd: dir });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { course: dir, phase: 'init', title: 'Here' });
  assert.ok(exists(path.join(dir, '.codelabgen/state.json')));
});

test('init refuses an existing state and changes nothing', () => {
  const root = course();
  const before = snapshot(root);
  assertRefused(
    cli(['init', root, '--title', 'Again']),
    /^error: .*\.codelabgen\/state\.json already exists; a course is never re-initialized$/,
  );
  assert.deepEqual(snapshot(root), before);
});

test('init refuses a missing or empty --title and an over-long one, creating nothing', () => {
  const dir = scratch();
  const result = cli(['init', 'c'], { cwd: dir });
  assertRefused(result, /^error: init: --title is required$/);
  assert.match(result.stderr, /^hint: codelabgen init DIR --title "Course title"$/m);
  assertRefused(cli(['init', 'c', '--title', '  '], { cwd: dir }), /^error: init: --title is required$/);
  assertRefused(
    cli(['init', 'c', '--title', 'x'.repeat(201)], { cwd: dir }),
    /^error: init: --title is 201 characters; the limit is 200$/,
  );
  assert.equal(snapshot(dir).size, 0);
  assert.equal(exists(path.join(dir, 'c')), false);
});

test('state show prints a summary, and --json the whole state, valid against the state schema', () => {
  const root = course();
  const human = cli(['state', 'show'], { cwd: root });
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /^Test course\b/); // the summary's layout belongs to state show's own tests
  assert.match(human.stdout, /phase:? init\b/);
  assert.equal(human.stderr, '');
  const json = cli(['state', 'show', '--json'], { cwd: root });
  assert.equal(json.code, 0);
  const state = StateSchema.parse(JSON.parse(json.stdout));
  assert.deepEqual(state, readState(root));
});

test('state log appends one event with the given fact, lesson and data', () => {
  const root = course();
  const result = cli(
    [
      'state',
      'log',
      'source-unreachable',
      '--data',
      'url=https://example.com/a=b',
      '--data',
      'status=404',
      '--data',
      'note=line1\nline2',
    ],
    { cwd: root },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'logged source-unreachable (seq 2)\n');
  const event = readEvents(root)[1];
  assert.deepEqual(
    { ...event, ts: undefined, pid: undefined },
    {
      seq: 2,
      ts: undefined,
      pid: undefined,
      kind: 'log',
      fact: 'source-unreachable',
      lesson: null,
      command:
        'codelabgen state log source-unreachable --data url=https://example.com/a=b --data status=404 --data note=line1\nline2',
      data: { url: 'https://example.com/a=b', status: '404', note: 'line1\nline2' },
    },
  );
  assert.match(String(event?.ts), ISO);
  assert.equal(readState(root).last_seq, 2);
  const json = cli(['state', 'log', 'done-early', '--json'], { cwd: root });
  assert.deepEqual(JSON.parse(json.stdout), { seq: 3, kind: 'log', fact: 'done-early' });
});

test('state log --lesson records a registered lesson and refuses an unknown one', () => {
  const root = course();
  const events = path.join(root, '.codelabgen/events.jsonl');
  const register = {
    seq: 2,
    ts: new Date().toISOString(),
    kind: 'lessons.register',
    removed: [],
    lessons: [
      {
        id: '1.1',
        title: 'One',
        slug: 'one',
        module_id: '1',
        module_slug: 'basics',
        module_title: 'Basics',
        dir: '1-basics/1.1-one',
      },
    ],
  };
  writeFileSync(events, `${readFileSync(events, 'utf8')}${JSON.stringify(register)}\n`);
  const recovered = cli(['state', 'log', 'note', '--lesson', '1.1'], { cwd: root });
  assert.equal(recovered.code, 0, recovered.stderr);
  assert.equal(
    recovered.stderr,
    'warning: recovered: replayed 1 event(s) missing from .codelabgen/state.json (seq 2..2)\n',
  );
  assert.equal(readEvents(root)[2]?.lesson, '1.1');
  const before = snapshot(root);
  const unknown = cli(['state', 'log', 'note', '--lesson', '9.9'], { cwd: root });
  assertRefused(unknown, /^error: unknown lesson "9\.9"$/);
  assert.match(unknown.stderr, /^hint: list lessons with: codelabgen state show --all$/m);
  assert.deepEqual(snapshot(root), before);
});

test('state log refuses a bad kind, a bad or repeated --data key and a pair without "="', () => {
  const root = course();
  const before = snapshot(root);
  const cases: Array<[string[], RegExp]> = [
    [['state', 'log', 'a/b'], /^error: state log: kind "a\/b" must be letters, digits/],
    [['state', 'log', '-x-'], /^error: state log: unknown option '-x'/],
    [['state', 'log', 'k'.repeat(65)], /^error: state log: kind "k+" must be/],
    [['state', 'log', 'k', '--data', 'novalue'], /^error: --data "novalue": expected key=value$/],
    [['state', 'log', 'k', '--data', '=v'], /^error: --data "=v": expected key=value$/],
    [['state', 'log', 'k', '--data', 'a b=1'], /^error: --data key "a b": use letters, digits/],
    [['state', 'log', 'k', '--data', 'a=1', '--data', 'a=2'], /^error: --data a: given twice$/],
    [
      ['state', 'log', 'k', '--data', `a=${'v'.repeat(64 * 1024 + 1)}`],
      /^error: --data a: value is 65537 characters; the limit is 65536$/,
    ],
  ];
  for (const [args, message] of cases) assertRefused(cli(args, { cwd: root }), message);
  assert.deepEqual(snapshot(root), before);
});

test('schema list names every schema; --json lists names and files', () => {
  const human = cli(['schema', 'list']);
  assert.equal(human.code, 0, human.stderr);
  assert.deepEqual(
    human.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/\s+/)[0]),
    SCHEMA_NAMES,
  );
  const json = JSON.parse(cli(['schema', 'list', '--json']).stdout) as Array<{ name: string; file: string }>;
  assert.deepEqual(
    json.map((entry) => entry.name),
    SCHEMA_NAMES,
  );
  assert.equal(json.find((entry) => entry.name === 'state')?.file, '.codelabgen/state.json');
});

test('schema show prints draft 2020-12 JSON Schema for every name and refuses an unknown one', () => {
  for (const name of SCHEMA_NAMES) {
    const result = cli(['schema', 'show', name]);
    assert.equal(result.code, 0, result.stderr);
    const schema = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(schema.title, name);
    assert.deepEqual(
      schema,
      JSON.parse(
        readFileSync(path.join(import.meta.dirname, '..', 'content-schemas', 'json', `${name}.schema.json`), 'utf8'),
      ),
    );
  }
  assertRefused(
    cli(['schema', 'show', 'nope']),
    new RegExp(`^error: unknown schema "nope"; one of: ${SCHEMA_NAMES.join(', ')}$`),
  );
});

test('check exits 0 on a clean course and 1 when state.json differs from the log replay', () => {
  const root = course();
  cli(['state', 'log', 'a'], { cwd: root });
  const clean = cli(['check'], { cwd: root });
  assert.equal(clean.code, 0, clean.stderr);
  assert.match(clean.stdout, /^ok {3}event log replays to state\.json \(2 events\)$/m);
  const stateFile = path.join(root, '.codelabgen/state.json');
  writeFileSync(
    stateFile,
    readFileSync(stateFile, 'utf8').replace('"title":"Test course"', '"title": "Edited by hand"'),
  );
  const dirty = cli(['check'], { cwd: root });
  assert.equal(dirty.code, 1);
  assert.match(dirty.stdout, /^FAIL event log replays to state\.json/m);
  assert.match(
    dirty.stdout,
    /state\.json differs from the replay of \.codelabgen\/events\.jsonl \(in title\); run "codelabgen state rebuild"/,
  );
  assert.match(dirty.stderr, /^error: check found 1 problem\n$/);
  const json = cli(['check', '--json'], { cwd: root });
  assert.equal(json.code, 1);
  assert.equal(json.stderr, '', 'with --json the report on stdout says it all: no error line');
  const report = JSON.parse(json.stdout) as { ok: boolean; problems: number };
  assert.deepEqual([report.ok, report.problems], [false, 1]);
});

test('state rebuild rewrites state.json from the log, equal to what commits wrote', () => {
  const root = course();
  cli(['state', 'log', 'a', '--data', 'k=v'], { cwd: root });
  const stateFile = path.join(root, '.codelabgen/state.json');
  const committed = readFileSync(stateFile, 'utf8');
  unlinkSync(stateFile);
  assertRefused(
    cli(['state', 'log', 'b'], { cwd: root }),
    /^error: \.codelabgen\/state\.json is missing but \.codelabgen\/events\.jsonl has events$/,
  );
  const result = cli(['state', 'rebuild'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'rebuilt .codelabgen/state.json from 2 events (last seq 2, phase init)\n');
  assert.equal(readFileSync(stateFile, 'utf8'), committed);
  const json = cli(['state', 'rebuild', '--json'], { cwd: root });
  assert.deepEqual(JSON.parse(json.stdout), { events: 2, last_seq: 2, phase: 'init', torn_bytes: 0 });
  assert.equal(cli(['check'], { cwd: root }).code, 0);
});

test('course resolution: --course, then $CODELABGEN_COURSE, then the nearest ancestor', () => {
  const a = course();
  const b = course();
  cli(['state', 'log', 'only-in-b'], { cwd: b });
  const sub = path.join(a, 'deep', 'er');
  mkdirSync(sub, { recursive: true });
  const seqOf = (result: CliResult) => (JSON.parse(result.stdout) as { last_seq: number }).last_seq;
  assert.equal(seqOf(cli(['state', 'show', '--json'], { cwd: sub })), 1, 'nearest ancestor');
  assert.equal(
    seqOf(cli(['state', 'show', '--json'], { cwd: sub, env: { CODELABGEN_COURSE: b } })),
    2,
    'env beats the ancestor',
  );
  assert.equal(
    seqOf(cli(['state', 'show', '--json', '--course', a], { cwd: sub, env: { CODELABGEN_COURSE: b } })),
    1,
    '--course beats env',
  );
  assert.equal(
    seqOf(cli(['state', 'show', '--json', '--course', path.relative(sub, b)], { cwd: sub })),
    2,
    '--course is relative to the cwd',
  );
  assert.equal(
    seqOf(cli(['--course', b, 'state', 'show', '--json'], { cwd: sub })),
    2,
    '--course may come before the command',
  );
  assert.equal(
    seqOf(cli([`--course=${b}`, 'state', 'show', '--json'], { cwd: sub })),
    2,
    '--course=DIR before the command',
  );
  const other = scratch();
  assertRefused(
    cli(['state', 'show', '--course', other]),
    new RegExp(`^error: --course ${other}: not a course directory \\(no \\.codelabgen/ folder\\)$`),
  );
  assertRefused(
    cli(['state', 'show'], { env: { CODELABGEN_COURSE: other }, cwd: other }),
    /^error: CODELABGEN_COURSE .*: not a course directory/,
  );
});

test('no course found: exit 2 naming --course, CODELABGEN_COURSE and the ancestor search', () => {
  const dir = scratch();
  const result = cli(['state', 'show'], { cwd: dir });
  assertRefused(
    result,
    /^error: no course found: pass --course DIR, set CODELABGEN_COURSE, or run inside a course directory \(one with \.codelabgen\/\)$/,
  );
  assert.match(result.stderr, /^hint: create one with: codelabgen init DIR --title "Course title"$/m);
  assert.equal(snapshot(dir).size, 0);
});
