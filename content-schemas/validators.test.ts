// The generated validators against zod: the committed file is what the generator writes today, and
// on a seeded corpus (valid documents, their mutations, the fuzz test's hostile strings and files)
// a validator accepts exactly what zod accepts, with zod's output. FAIL for valid data costs speed only.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { load as loadYaml } from 'js-yaml';
import { z } from 'zod';
import { HOSTILE_FILES, HOSTILE_STRINGS, prng } from '../cli/fuzz-cases.ts';
import { apply } from '../pipeline/state/apply.ts';
import { FAST_SCHEMAS, renderValidators, type FastSchemaName } from './generate-validators.ts';
import * as schemas from './index.ts';
import { refinement } from './refine.ts';
import type { Event, State } from './index.ts';
import { ISO_DATE_TIME } from './validator-helpers.ts';
import { ISO_DATE_TIME_SOURCE } from './validator-scalars.ts';
import { FAIL, VALIDATORS } from './validators.generated.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXAMPLE = path.join(HERE, '..', 'examples', 'node-streams', '.codelabgen');

/** Schemas whose generated validator leaves a feature to zod (enumerated record keys). */
const ZOD_DECIDES_SOME: ReadonlySet<FastSchemaName> = new Set(['ReportSchema']);

test('the committed validators.generated.ts is what the generator writes from the schemas today', () => {
  const committed = readFileSync(path.join(HERE, 'validators.generated.ts'), 'utf8');
  assert.ok(
    committed === renderValidators(),
    'content-schemas/validators.generated.ts is stale: run "node scripts/build.mjs" and commit it',
  );
});

const TS = '2026-11-30T10:00:00.000Z';

/** A course's events covering every kind of lesson and task change, and the state they build. */
function sampleEvents(): Event[] {
  const lessons = ['1.1', '1.2', '2.1'].map((id) => ({
    id,
    title: `Lesson ${id}`,
    slug: `lesson-${id.replace('.', '-')}`,
    module_id: id[0]!,
    module_slug: `module-${id[0]}`,
    module_title: `Module ${id[0]}`,
    dir: `${id[0]}-module/${id}-lesson`,
  }));
  const drafts: Array<Record<string, unknown>> = [
    { kind: 'course.init', title: 'Streams', topic: null },
    { kind: 'phase.advance', from: 'init', to: 'recon', approved: false },
    { kind: 'lessons.register', lessons, removed: [] },
    { kind: 'lesson.stage', lesson: '1.1', from: 'pending', to: 'spec', note: null, review_round_used: false },
    { kind: 'lesson.stage', lesson: '1.1', from: 'spec', to: 'code', note: 'first cut', review_round_used: false },
    {
      kind: 'lesson.fail',
      lesson: '1.1',
      note: 'test failed',
      fix_attempts_used: 1,
      blocked: false,
      via: 'verify',
      run: 1,
    },
    { kind: 'lesson.verified', lesson: '1.1', code_hash: 'sha256:abc', run: 2 },
    { kind: 'lesson.block', lesson: '1.2', reason: 'needs a decision' },
    { kind: 'lesson.unblock', lesson: '1.2', fix_budget_reset: false },
    { kind: 'task.start', task: 't1', lesson: '2.1', role: 'code-author' },
    {
      kind: 'task.finish',
      task: 't1',
      status: 'done',
      note: null,
      result: { lesson: '2.1', status: 'ok', stage: 'code', artifacts: ['src/a.js'] },
    },
    { kind: 'log', fact: 'source-unreachable', lesson: null, data: { url: 'https://example.com', status: '404' } },
    { kind: 'site.build', out: 'dist/site', pages: 4, lessons: ['1.1'] },
  ];
  return drafts.map(
    (draft, index) => ({ seq: index + 1, ts: TS, pid: 42, command: 'codelabgen test', ...draft }) as Event,
  );
}

function sampleState(events: readonly Event[]): State {
  let state: State | null = null;
  for (const event of events) state = apply(state, event);
  return state!;
}

function exampleFile(rel: string): unknown {
  return loadYaml(readFileSync(path.join(EXAMPLE, rel), 'utf8'));
}

function exampleLines(rel: string): unknown[] {
  return readFileSync(path.join(EXAMPLE, rel), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** Valid documents per schema (none for those only hostile inputs reach in this test). */
function validSamples(): Partial<Record<FastSchemaName, unknown[]>> {
  const events = sampleEvents();
  const state = sampleState(events);
  const lessonsDir = path.join(EXAMPLE, 'lessons');
  const lessons = readdirSync(lessonsDir);
  return {
    ConfigSchema: [
      exampleFile('config.yaml'),
      {},
      { budgets: { fix_attempts: 5 } },
      { site: { accent: '#0b7a75', accent_dark: '#7fd4cf', repo_url: 'https://example.com/course' } },
    ],
    CurriculumSchema: [exampleFile('curriculum.yaml')],
    LessonSpecSchema: lessons.map((id) => exampleFile(`lessons/${id}/spec.yaml`)),
    ReviewSchema: lessons.map((id) =>
      loadYaml(/^---\n([\s\S]*?)\n---/.exec(readFileSync(path.join(lessonsDir, id, 'review.md'), 'utf8'))?.[1] ?? ''),
    ),
    GlossaryEntrySchema: exampleLines('glossary.jsonl'),
    SourceSchema: exampleLines('sources.jsonl'),
    TopicSchema: readdirSync(path.join(EXAMPLE, 'topics')).flatMap((file) => exampleLines(`topics/${file}`)),
    StateSchema: [state, JSON.parse(JSON.stringify(state))],
    EventSchema: events,
    TaskSchema: Object.values(state.tasks),
    WorkerStatusSchema: [
      { lesson: '1.1', status: 'ok', stage: 'code' },
      { lesson: '1.1', status: 'failed', stage: 'spec', artifacts: ['a/b.md'], notes: 'why' },
    ],
    RoleSchema: ['code-author', 'x'],
    LessonIdSchema: ['1.1', 'intro_2'],
  };
}

const EXTRA_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  2 ** 53,
  1e308,
  [],
  {},
  [1],
  { x: 1 },
  undefined,
  '2026-11-30T10:00:00Z',
  '2026-02-30T10:00:00Z',
];

/** One mutation of `doc`: a value replaced, a key dropped or added, somewhere in it. */
function mutate(doc: unknown, random: () => number): unknown {
  const copy = structuredClone(doc);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const value = () => (random() < 0.5 ? pick(HOSTILE_STRINGS) : pick(EXTRA_VALUES));
  if (typeof copy !== 'object' || copy === null) return value();
  let node: any = copy;
  for (let depth = 0; depth < 6; depth += 1) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const key = pick(keys);
    const child = node[key];
    if (typeof child === 'object' && child !== null && random() < 0.6) {
      node = child;
      continue;
    }
    const roll = random();
    if (roll < 0.15 && !Array.isArray(node)) delete node[key];
    else if (roll < 0.25 && !Array.isArray(node)) node[pick(HOSTILE_STRINGS.filter((s) => s.length < 100))] = value();
    else node[key] = value();
    return copy;
  }
  return copy;
}

function hostileDocuments(): unknown[] {
  const docs: unknown[] = [...HOSTILE_STRINGS, ...EXTRA_VALUES];
  for (const bytes of Object.values(HOSTILE_FILES)) {
    const text = bytes.toString('utf8');
    for (const parse of [JSON.parse, (t: string) => loadYaml(t, { maxAliases: 100 })]) {
      try {
        docs.push(parse(text));
      } catch {
        // not parseable this way: the CLI refuses it before any schema sees it
      }
    }
  }
  return docs;
}

function compare(name: FastSchemaName, input: unknown): 'accepted' | 'refused' {
  const zod = (schemas[name] as schemas.SchemaEntry['schema']).safeParse(input);
  const generated = VALIDATORS[name](input);
  const shown = () => (JSON.stringify(input) ?? String(input)).slice(0, 300);
  if (generated !== FAIL) {
    assert.ok(zod.success, `${name}: the generated validator accepts what zod refuses: ${shown()}`);
    assert.deepEqual(generated, zod.data, `${name}: output differs from zod's for ${shown()}`);
    assert.equal(
      JSON.stringify(generated),
      JSON.stringify(zod.data),
      `${name}: key order differs from zod's for ${shown()}`,
    );
  } else if (zod.success) {
    assert.ok(ZOD_DECIDES_SOME.has(name), `${name}: the generated validator refuses what zod accepts: ${shown()}`);
  }
  return zod.success ? 'accepted' : 'refused';
}

test('a small schema change is a small diff of the generated file (names follow content, not order)', () => {
  const before = renderValidators().split('\n');
  // Two optional fields added to the first schema of the file: every later name used to shift.
  const changed = { ...Object.fromEntries(FAST_SCHEMAS.map((name) => [name, schemas[name]])) } as Record<
    string,
    z.ZodType
  >;
  changed.ConfigSchema = (schemas.ConfigSchema as unknown as z.ZodObject).extend({
    extra_one: z.string().optional().describe('test'),
    extra_two: z.number().optional().describe('test'),
  });
  const after = renderValidators(changed as never).split('\n');
  const removed = before.filter((line) => !after.includes(line));
  const added = after.filter((line) => !before.includes(line));
  assert.ok(
    removed.length + added.length <= 20,
    `${removed.length} lines removed, ${added.length} added:\n${[...removed, ...added].join('\n')}`,
  );
});

test("every generated validator accepts and refuses what zod does, with zod's output (seeded corpus)", () => {
  const random = prng(16);
  const samples = validSamples();
  const hostile = hostileDocuments();
  for (const name of FAST_SCHEMAS) {
    const seen = { accepted: 0, refused: 0 };
    const valid = samples[name] ?? [];
    for (const doc of valid) seen[compare(name, doc)] += 1;
    for (let i = 0; i < 400 && valid.length > 0; i += 1)
      seen[compare(name, mutate(valid[i % valid.length], random))] += 1;
    for (const doc of hostile) seen[compare(name, doc)] += 1;
    if (valid.length > 0)
      assert.ok(
        seen.accepted >= valid.length && seen.refused > 0,
        `${name}: the corpus should hold both valid and invalid documents (${JSON.stringify(seen)})`,
      );
  }
});

// Colours on both sides of 4.5:1 on light and dark pages, and URLs zod's URL format trims, rewrites or refuses.
const COLOURS = [
  '#0b7a75',
  '#767676',
  '#777777',
  '#000000',
  '#ffffff',
  '#7fd4cf',
  '#3b82f6',
  '#FF0000',
  '#0B7A75',
  '#0b7a7',
  '#0b7a75 ',
  'red',
  '#gggggg',
];
const URLS = [
  'https://example.com',
  'http://example.com/a?b#c',
  ' https://example.com/x ',
  'https://exa\nmple.com',
  'https://example.com/\tpath',
  'HTTPS://EXAMPLE.COM',
  'http:example.com',
  'https:/path',
  'https://',
  'ftp://example.com',
  'javascript:alert(1)',
  'mailto:a@b.c',
  'https://ex ample.com',
  'https://[::1]:8080/',
  'https://user:pw@example.com',
  '//example.com',
  'example.com',
  '\u0000https://example.com',
];

test('the URL format and the accent refinements validate as zod does, without zod (targeted corpus)', () => {
  const seen = { accepted: 0, refused: 0 };
  for (const colour of COLOURS)
    for (const field of ['accent', 'accent_dark']) seen[compare('ConfigSchema', { site: { [field]: colour } })] += 1;
  for (const url of URLS) {
    seen[compare('ConfigSchema', { site: { repo_url: url } })] += 1;
    seen[compare('SourceSchema', { id: 's1', title: 'A source', url, kind: 'article', status: 'candidate' })] += 1;
  }
  assert.ok(seen.accepted >= 10 && seen.refused >= 10, JSON.stringify(seen));
  assert.doesNotMatch(
    readFileSync(path.join(HERE, 'validators.generated.ts'), 'utf8'),
    /string (format url|check custom): zod decides/,
  );
});

test("the state apply() builds is in zod's key order, so a state.json read without the check prints the same", () => {
  const state = sampleState(sampleEvents());
  const checked = schemas.StateSchema.parse(JSON.parse(JSON.stringify(state)));
  assert.equal(JSON.stringify(state), JSON.stringify(checked));
});

test('a refinement the generator cannot name is compiled to FAIL, never to "valid"', () => {
  const text = renderValidators({
    Plain: z.string().refine((value) => value !== 'x'),
    Named: z.string().check(refinement('accentReadableOnLight')),
  });
  assert.match(text, /return FAIL; \/\/ string check custom: zod decides/);
  assert.match(text, /REFINEMENTS\.accentReadableOnLight\(s\) !== null/);
  assert.match(
    readFileSync(path.join(HERE, 'validators.generated.ts'), 'utf8'),
    /return FAIL; \/\/ record with enumerated keys: zod decides/,
  );
});

test('plain unions and enums compile as zod reads them: the first option that accepts, unless an earlier option is left to zod', async () => {
  const Lesson = z.strictObject({ lesson: z.string(), artifacts: z.array(z.string()).max(2).default([]) });
  const Phase = z.strictObject({
    phase: z.enum(['recon', 'lessons']),
    artifacts: z.array(z.string()).default([]),
    notes: z.string().optional(),
  });
  // Both options accept { x: "1" }; zod answers with the first, whose check is left to zod (two levels down).
  const Inexact = z.strictObject({
    x: z.strictObject({ y: z.string().refine((value) => value !== 'no') }).optional(),
    from: z.string().default('first'),
  });
  const Exact = z.strictObject({ x: z.strictObject({ y: z.string() }).optional(), from: z.string().default('second') });
  const named = {
    Status: z.union([Lesson, Phase]),
    Scalar: z.union([z.literal('a'), z.number().int().min(0), z.enum(['b', 'c']).nullable()]),
    Site: z.strictObject({
      publish: z.enum(['all', 'verified', 'reviewed']).default('all'),
      report: z.boolean().default(false),
    }),
    FirstLeftToZod: z.union([Inexact, Exact]),
    LastLeftToZod: z.union([Exact.extend({ from: z.literal('x') }), Inexact]),
  };
  const text = renderValidators(named);
  assert.match(text, /return FAIL; \/\/ union with an option zod decides before the last: zod decides/);
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-validators-'));
  writeFileSync(path.join(dir, 'validators.ts'), text);
  copyFileSync(path.join(HERE, 'validator-helpers.ts'), path.join(dir, 'validator-helpers.ts')); // what the generated file imports
  const generated = (await import(pathToFileURL(path.join(dir, 'validators.ts')).href)) as {
    FAIL: symbol;
    VALIDATORS: Record<keyof typeof named, (v: unknown) => unknown>;
  };
  rmSync(dir, { recursive: true });
  const docs: unknown[] = [
    { lesson: '1.1' },
    { lesson: '1.1', artifacts: ['a', 'b', 'c'] },
    { phase: 'recon' },
    { phase: 'recon', notes: 'n', artifacts: ['a'] },
    { phase: 'other' },
    { lesson: '1.1', phase: 'recon' },
    'a',
    'b',
    'c',
    'd',
    0,
    3,
    -1,
    1.5,
    null,
    undefined,
    {},
    { publish: 'verified' },
    { publish: 'none' },
    { report: true, publish: 'reviewed' },
    { x: { y: '1' } },
    { x: { y: 'no' } },
    { from: 'x' },
    { x: { y: 'no' }, from: 'x' },
    { x: 1 },
  ];
  let accepted = 0;
  for (const [name, schema] of Object.entries(named)) {
    for (const doc of docs) {
      const zod = schema.safeParse(doc);
      const out = generated.VALIDATORS[name as keyof typeof named](doc);
      if (out === generated.FAIL) continue;
      accepted += 1;
      assert.ok(zod.success, `${name}: accepts what zod refuses: ${JSON.stringify(doc)}`);
      assert.equal(
        JSON.stringify(out),
        JSON.stringify(zod.data),
        `${name}: output differs from zod's for ${JSON.stringify(doc)}`,
      );
    }
  }
  assert.equal(
    generated.VALIDATORS.FirstLeftToZod({ x: { y: '1' } }),
    generated.FAIL,
    'zod decides when an earlier option is',
  );
  assert.deepEqual(generated.VALIDATORS.LastLeftToZod({ x: { y: '1' }, from: 'x' }), { x: { y: '1' }, from: 'x' });
  assert.ok(accepted >= 15, `accepted ${accepted}`);
});

test("ISO_DATE_TIME accepts what zod's date-time expression does, on 200,000 seeded near-timestamps and the calendar's edges", () => {
  const expression = new RegExp(ISO_DATE_TIME_SOURCE);
  assert.equal(
    expression.source,
    (schemas.TimestampSchema as unknown as { _zod: { def: { pattern: RegExp } } })._zod.def.pattern.source,
  );
  const random = prng(29);
  const pick = (text: string) => text[Math.floor(random() * text.length)]!;
  const edges: string[] = [];
  for (const year of ['2024', '2023', '2000', '1900', '1600', '2100', '0000', '0004', '9996', '1204'])
    for (const month of ['00', '01', '02', '04', '09', '11', '12', '13'])
      for (const day of ['00', '01', '28', '29', '30', '31', '32'])
        edges.push(`${year}-${month}-${day}T23:59:59Z`, `${year}-${month}-${day}T00:00:00.5+23:59`);
  const samples = [...edges, '', 'T', '2026-12-02T11:30:00', '2026-12-02T11:30:00Z\n', '2026-12-02T11:30:00.Z'];
  const alphabet = '0123456789-:T.Z+ z';
  for (let n = 0; n < 200_000; n += 1) {
    const chars = [...`${2000 + Math.floor(random() * 40)}-12-02T11:30:00.${'1'.repeat(Math.floor(random() * 3))}Z`];
    if (random() < 0.5)
      chars.splice(
        chars.length - 1,
        1,
        ...(pick('+-') + `${pick('012')}${pick('0123456789')}:${pick('0123456')}${pick('0123456789')}`),
      );
    for (let edit = Math.floor(random() * 4); edit > 0; edit -= 1) {
      const at = Math.floor(random() * (chars.length + 1));
      const what = random();
      if (what < 0.5) chars[at] = pick(alphabet);
      else if (what < 0.75) chars.splice(at, 1);
      else chars.splice(at, 0, pick(alphabet));
    }
    samples.push(chars.join(''));
  }
  let accepted = 0;
  for (const text of samples) {
    assert.equal(ISO_DATE_TIME.test(text), expression.test(text), JSON.stringify(text));
    if (expression.test(text)) accepted += 1;
  }
  assert.ok(
    accepted > 20_000 && accepted < samples.length - 20_000,
    `${accepted} of ${samples.length} accepted: too one-sided to compare`,
  );
});
