// parseYamlSubset against js-yaml: on the project's own YAML files and on a seeded corpus of
// documents and their mutations, whatever the subset reader returns is what js-yaml loads (values,
// types and key order); everything else it leaves to js-yaml (undefined).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { DEFAULT_CONFIG_YAML } from '../pipeline/store/create.ts';
import { parseYamlSubset } from './yaml-subset.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OPTIONS = { maxAliases: 100, maxDepth: 64 };

/** js-yaml's result, or the error it throws. */
function jsYaml(text: string): { value: unknown } | { error: unknown } {
  try {
    return { value: load(text, OPTIONS) };
  } catch (error) {
    return { error };
  }
}

/** Fails unless the subset reader leaves `text` to js-yaml or returns exactly what js-yaml returns. */
function agrees(text: string): boolean {
  const subset = parseYamlSubset(text);
  if (subset === undefined) return false;
  const expected = jsYaml(text);
  assert.ok('value' in expected, `the subset reader accepted what js-yaml refuses: ${JSON.stringify(text)}`);
  assert.deepStrictEqual(subset, expected.value, `differs from js-yaml on ${JSON.stringify(text)}`);
  assert.equal(JSON.stringify(subset), JSON.stringify(expected.value), `key order differs on ${JSON.stringify(text)}`);
  return true;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.ya?ml$/.test(name) && !name.includes('node_modules'))
    .map((name) => path.join(dir, name));
}

test("init's config.yaml, the lesson templates' spec.yaml and the examples' data files are read as js-yaml reads them", () => {
  assert.ok(
    agrees(DEFAULT_CONFIG_YAML),
    'the config.yaml init writes is outside the subset: every state command loads js-yaml',
  );
  const template = (file: string) =>
    readFileSync(file, 'utf8').replaceAll('{{id}}', '1.1').replaceAll('{{title_json}}', '"A lesson: the first"');
  for (const file of yamlFiles(path.join(REPO, 'templates')).filter((name) => name.endsWith('spec.yaml')))
    assert.ok(agrees(template(file)), `${path.relative(REPO, file)} is outside the subset`);
  const examples = yamlFiles(path.join(REPO, 'examples'));
  assert.ok(examples.length >= 10, `examples' YAML files found: ${examples.length}`);
  const read = examples.filter((file) => agrees(readFileSync(file, 'utf8')));
  for (const file of examples.filter((name) => /config\.yaml$|spec\.yaml$/.test(name)))
    assert.ok(read.includes(file), `${path.relative(REPO, file)} is outside the subset`);
});

/** A small seeded generator (mulberry32): the same corpus on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Mostly what the subset holds, and now and then (ODD_KEYS, ODD_SCALARS) what it leaves to js-yaml.
const KEYS = ['title', 'runtime', 'budgets', 'fix_attempts', 'files', 'path', 'a-b', 'x', '_k', 'No'];
const ODD_KEYS = ['True', 'null', '__proto__', '"q"', 'a b', '1'];
const SCALARS = [
  'node',
  'Node.js streams, readable',
  'a #b',
  'a#b',
  'a  b',
  '20m',
  '12',
  '0',
  '-4',
  '1.50',
  '0.5',
  'true',
  'false',
  'null',
  '~',
  'yes',
  'No',
  'Infinity',
  '"quoted: text # not a comment"',
  '"with \'single\' quotes"',
  '\'it is: "so" # here\'',
  "'back\\slash'",
  '"naïve · ünïcode"',
  '"" # empty',
  'x # comment',
];
const ODD_SCALARS = [
  'a: b',
  '1e3',
  '0x1F',
  '007',
  '-0',
  '.5',
  '2001-12-14',
  'True',
  'FALSE',
  'Null',
  '"with \\"escape\\""',
  "'single ''quoted'''",
  '[a, b]',
  '{ a: 1 }',
  '&anchor x',
  '*alias',
  '!tag x',
  '@at',
  '`tick',
  '>-',
  '|',
  '|-',
  '>',
  '',
  '# comment',
];
const TRICKY = [
  ' ',
  '  ',
  '#',
  ':',
  '-',
  '"',
  "'",
  '|',
  '>',
  '\n',
  '\t',
  'T',
  'e',
  'n',
  't',
  'u',
  '0',
  '1',
  '.',
  '~',
  '&',
  '*',
  '[',
  '{',
  '\\',
  'é',
];

/** A document of the subset's shapes (and some outside it), nested `depth` levels at most. */
function document(next: () => number, depth = 0, indent = ''): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const key = () => (next() < 0.03 ? pick(ODD_KEYS) : pick(KEYS));
  const value = () => (next() < 0.05 ? pick(ODD_SCALARS) : pick(SCALARS));
  const lines: string[] = [];
  const count = 1 + Math.floor(next() * 4);
  for (let i = 0; i < count; i += 1) {
    const shape = next();
    if (shape < 0.5 || depth >= 3) lines.push(`${indent}${key()}: ${value()}`.trimEnd());
    else if (shape < 0.65) lines.push(`${indent}${key()}:`, document(next, depth + 1, `${indent}  `));
    else if (shape < 0.8) {
      lines.push(`${indent}${key()}:`);
      const dash = next() < 0.3 ? indent : `${indent}  `;
      for (let j = 0; j < 1 + Math.floor(next() * 3); j += 1) {
        if (next() < 0.5) lines.push(`${dash}- ${value()}`.trimEnd());
        else lines.push(`${dash}- ${key()}: ${value()}`.trimEnd(), `${dash}  ${key()}: ${value()}`.trimEnd());
      }
    } else {
      lines.push(`${indent}${key()}: ${pick(['|', '|-', '>', '>-'])}`);
      for (let j = 0; j < 1 + Math.floor(next() * 3); j += 1) lines.push(`${indent}  ${value()}`.trimEnd());
      if (next() < 0.2) lines.push('');
    }
    if (next() < 0.15) lines.push(next() < 0.5 ? '' : `${indent}# a comment`);
  }
  return lines.join('\n');
}

/** `text` with a few characters inserted, deleted or swapped for tricky ones. */
function mutate(text: string, next: () => number): string {
  let out = text;
  for (let n = 0; n < 1 + Math.floor(next() * 3); n += 1) {
    const at = Math.floor(next() * (out.length + 1));
    const what = next();
    const char = TRICKY[Math.floor(next() * TRICKY.length)]!;
    if (what < 0.4) out = out.slice(0, at) + char + out.slice(at);
    else if (what < 0.7) out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + char + out.slice(at + 1);
  }
  return out;
}

test('on 3,000 seeded documents and 3,000 mutations, what the subset reader returns is what js-yaml loads', () => {
  const next = random(20261202);
  let read = 0;
  let readMutated = 0;
  for (let n = 0; n < 3000; n += 1) {
    const text = document(next) + (next() < 0.8 ? '\n' : '');
    if (agrees(text)) read += 1;
    if (agrees(mutate(text, next))) readMutated += 1;
  }
  // Enough of the corpus is inside the subset for the comparison to mean something.
  assert.ok(read >= 1000, `only ${read} of 3,000 documents were inside the subset`);
  assert.ok(readMutated >= 300, `only ${readMutated} of 3,000 mutations were inside the subset`);
});

test('outside the subset: left to js-yaml', () => {
  for (const text of [
    '',
    '# only a comment\n',
    '- a\n- b\n',
    'a: 1\na: 2\n',
    '---\na: 1\n',
    'a:\tb\n',
    'a: b\r\n',
    'a: "x\\u0041"\n',
    'a: "x\\\ny"\n',
    "a: 'it''s'\n",
    'a: [1, 2]\n',
    'a: &x 1\nb: *x\n',
    'a: |\n  x',
    'a: >\n  x\n\n  y\n',
    'a: |\n  x\n    y\n',
    'a: plain\n  continued\n',
    'a: 1e3\n',
    'a: 2001-12-14\n',
    'True: x\n',
    '__proto__: x\n',
    'a: b: c\n',
  ])
    assert.equal(parseYamlSubset(text), undefined, JSON.stringify(text));
});
