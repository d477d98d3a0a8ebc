// `node bench/validators-ajv.ts [ROUNDS]`: the generated validators (content-schemas/
// validators.generated.ts) against Ajv's standalone code for the same schemas (zod's JSON Schema,
// draft 2020-12, compiled by Ajv2020 with useDefaults), as docs/performance.md reports them: code
// size, the CPU a fresh process spends loading each (esbuild bundles, no compile cache), and the
// first and warm validation of a 1,000-lesson state.json and two event lines. Ajv comes with
// @modelcontextprotocol/sdk; it is not a dependency of its own. The Ajv code leaves out what JSON
// Schema cannot say (named refinements, zod's URL check, defaults inside anyOf, zod's key order),
// so its figures are a lower bound. Needs a built CLI (node scripts/build.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { z } from 'zod';
import { FAST_SCHEMAS } from '../content-schemas/generate-validators.ts';
import * as schemas from '../content-schemas/index.ts';
import { buildStateCourse } from './state-course.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..');
const rounds = Number(process.argv[2] ?? 15);
const work = mkdtempSync(path.join(tmpdir(), 'codelabgen-ajv-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const require = createRequire(import.meta.url);

/** Ajv standalone code of FAST_SCHEMAS as a module with the exports of validators.generated.ts. */
function ajvModule(): string {
  const Ajv2020 = require('ajv/dist/2020').default;
  const standaloneCode = require('ajv/dist/standalone').default;
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: false, optimize: true },
    useDefaults: true,
    strict: false,
    validateFormats: false,
    messages: false,
  });
  for (const name of FAST_SCHEMAS) {
    const { $schema: _, ...json } = z.toJSONSchema(schemas[name] as z.ZodType, {
      target: 'draft-2020-12',
      io: 'input',
    }) as Record<string, unknown>;
    ajv.addSchema(json, name);
  }
  const code = (standaloneCode(ajv, Object.fromEntries(FAST_SCHEMAS.map((name) => [name, name]))) as string)
    .replace('"use strict";', '')
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', 'ucs2length.default');
  const table = FAST_SCHEMAS.map((name) => `${name}: (v) => (${name}(v) ? v : FAIL)`).join(', ');
  return (
    `import ucs2length from ${JSON.stringify(require.resolve('ajv/dist/runtime/ucs2length'))};\n${code}\nexport ` +
    `const FAIL = Symbol('FAIL');\nexport const VALIDATORS = { ${table} };\n`
  );
}

const med = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const loadAtStart = load();
const home = path.join(ROOT, 'content-schemas', 'validators.generated.ts');
const ajv = path.join(work, 'ajv.mjs');
writeFileSync(ajv, ajvModule());
const bundles: Record<string, string> = { home: path.join(work, 'home.cjs'), ajv: path.join(work, 'ajv.cjs') };
const empty = path.join(work, 'empty.cjs');
writeFileSync(empty, '');
for (const [name, entry] of [
  ['home', home],
  ['ajv', ajv],
] as const) {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundles[name]!,
    logLevel: 'warning',
  });
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    outfile: `${bundles[name]!}.min.cjs`,
    logLevel: 'warning',
  });
}
console.log(`load average at start: ${load()}`);
console.log('code size: source, bundled, minified (gzip of minified)');
for (const [name, source] of [
  ['home', home],
  ['ajv', ajv],
] as const) {
  const min = readFileSync(`${bundles[name]!}.min.cjs`);
  console.log(
    `  ${name.padEnd(5)} ${kb(statSync(source).size)}, ${kb(statSync(bundles[name]!).size)}, ${kb(min.length)} (${kb(gzipSync(min).length)})`,
  );
}

// Loading: CPU of a fresh process that requires the bundle, against one requiring an empty file.
const cpuOf = (file: string) => {
  const run = spawnSync(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(file)});const c=process.cpuUsage();process.stdout.write(String((c.user+c.system)/1000))`,
    ],
    { encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } },
  );
  return Number(run.stdout);
};
const loaded = new Map<string, number[]>();
for (let round = 0; round <= rounds; round += 1) {
  for (const [name, file] of [
    ['empty file', empty],
    ['home', bundles.home!],
    ['ajv', bundles.ajv!],
    ['home minified', `${bundles.home!}.min.cjs`],
    ['ajv minified', `${bundles.ajv!}.min.cjs`],
  ] as const) {
    const cpu = cpuOf(file);
    if (round > 0) loaded.set(name, [...(loaded.get(name) ?? []), cpu]);
  }
}
const base = med(loaded.get('empty file')!);
console.log(`loading, CPU of a fresh process (median of ${rounds}; require of an empty file: ${base.toFixed(1)} ms)`);
for (const [name, values] of loaded)
  if (name !== 'empty file') console.log(`  ${name.padEnd(14)} +${(med(values) - base).toFixed(1)} ms`);

// Validation: a 1,000-lesson state.json and two event lines, first call (CPU) and warm (median).
const course = path.join(work, 'course');
buildStateCourse(course, { lessons: 1000, events: 2 });
const event = {
  seq: 96,
  ts: '2026-12-01T15:55:05.986Z',
  pid: 20427,
  command: 'codelabgen state set 1.1 spec --note bench',
};
const inputs: Array<[string, string, string, number]> = [
  [
    'state.json, 1,000 lessons',
    'StateSchema',
    readFileSync(path.join(course, '.codelabgen', 'state.json'), 'utf8'),
    50,
  ],
  [
    'event line, lesson.stage',
    'EventSchema',
    JSON.stringify({
      ...event,
      kind: 'lesson.stage',
      lesson: '1.1',
      from: 'pending',
      to: 'spec',
      note: 'bench',
      review_round_used: false,
    }),
    2000,
  ],
  [
    'event line, log',
    'EventSchema',
    JSON.stringify({ ...event, kind: 'log', fact: 'bench', lesson: null, data: { k: 'v' } }),
    2000,
  ],
];
const one = `const [mod, name, file, runs] = process.argv.slice(1);
const text = (await import('node:fs')).readFileSync(file, 'utf8');
const { FAIL, VALIDATORS } = await import(mod);
let data = JSON.parse(text);
const before = process.cpuUsage();
if (VALIDATORS[name](data) === FAIL) throw new Error('FAIL on valid data');
const first = process.cpuUsage(before);
const warm = [];
for (let i = 0; i < Number(runs); i++) {
  data = JSON.parse(text);
  const t = process.hrtime.bigint();
  VALIDATORS[name](data);
  warm.push(Number(process.hrtime.bigint() - t) / 1e6);
}
warm.sort((a, b) => a - b);
process.stdout.write((first.user + first.system) / 1000 + ' ' + warm[Math.floor(warm.length / 2)]);`;
console.log(`validation (median of ${rounds} processes): first call CPU, then warm`);
for (const [label, name, text, runs] of inputs) {
  const file = path.join(work, `${name}-${text.length}.json`);
  writeFileSync(file, text);
  for (const [which, mod] of [
    ['home', home],
    ['ajv', ajv],
  ] as const) {
    const first: number[] = [];
    const warm: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', one, mod, name, file, String(runs)], {
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new Error(`${label}, ${which}: ${run.error?.message ?? run.stderr}`);
      const [cpu, ms] = run.stdout.split(' ').map(Number);
      first.push(cpu!);
      warm.push(ms!);
    }
    console.log(
      `  ${label.padEnd(27)} ${which.padEnd(5)} ${med(first).toFixed(2)} ms, warm ` +
        `${med(warm) >= 1 ? `${med(warm).toFixed(2)} ms` : `${(med(warm) * 1000).toFixed(1)} µs`}`,
    );
  }
}
console.log(`load average at start ${loadAtStart}, at end ${load()}`);
