// The codemod (scripts/wrap-long-lines.ts) shortens long lines without changing a value: the module it
// rewrites (then laid out by Biome, as the codemod does) exports exactly what the original exported.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MAX_LINE } from './long-lines.ts';
import { wrapAstro, wrapSource } from './wrap-long-lines.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const words = 'and then enough words to take this line past the limit of the check, however it is indented';
const tail = `${words}, ${words}`;

/** Literals the codemod must leave whole (a type, a tag, a name, an as-const tuple), and their lines. */
const KEPT = [
  `'a type position keeps its literal ${tail}'`,
  `String.raw\`a tagged template reads its raw text: \\d+ ${tail}\``,
  `'a property name stays one literal ${tail}'`,
  `'an as-const literal keeps its type ${tail}'`,
];
const KEPT_LINES = [
  `export type Kind = ${KEPT[0]};`,
  `export const tagged = ${KEPT[1]};`,
  `export const keyed = { ${KEPT[2]}: 1 };`,
  `export const KINDS = [${KEPT[3]}] as const;`,
];

const SOURCE = [
  'const n = 3;',
  "const who = 'the reader';",
  `// A comment line over the limit is wrapped into more comment lines at the same indentation, ${tail}.`,
  `export const plain = 'A string with \`code\`, "quotes" and an escaped \\' quote, ${tail}';`,
  `export const escapes = 'Escapes split intact: a\\ttab, a\\nnewline, a backslash \\\\ then a space, \\u00e9, ${tail}';`,
  `export const template = \`lesson \${n}: the course is at phase \${who}, which needs every lesson done; \${n + 1} ${tail}\`;`,
  `export const nested = \`\${n > 1 ? \`\${n} problems\` : 'A problem'}\${n > 2 ? \`, \${who} sees them\` : ''}\${n > 3 ? ' more' : ''} ${tail}\`;`,
  `export const member = \`\${n} items, then a template whose value a method reads: \${who} ${tail}\`.toUpperCase();`,
  `export const sum = 1 + \`\${n} a template on the right of a plus keeps its value and its place in the sum: ${tail}\`;`,
  `export const regex = /^error: lesson 1\\.1: no code reference \\(see \`codelabgen conventions\`\\); it's '\\/x' ${tail}$/m;`,
  `export const escapedSpace = '${'x'.repeat(70)}\\ ${'y'.repeat(70)} ${'z'.repeat(30)}';`,
  `export const spaced = \`\${who} and \${[${Array(30).fill('n').join(', ')}].join(', ')} ${tail}\`;`,
  `export const slashes = /a regex with a backslash before a space:\\ one, ${tail}/g.source;`,
  ...KEPT_LINES,
  '',
].join('\n');

function biomeFormat(text: string, fileName: string): string {
  const result = spawnSync(
    path.join(REPO, 'node_modules', '.bin', 'biome'),
    ['format', `--stdin-file-path=${fileName}`],
    { cwd: REPO, input: text, encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

test('split literals, regexes and comments keep every exported value; what must stay one literal does', {
  timeout: 120_000,
}, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-wrap-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const wrapped = biomeFormat(wrapSource(SOURCE), 'wrapped.ts');
  writeFileSync(path.join(dir, 'original.ts'), SOURCE);
  writeFileSync(path.join(dir, 'wrapped.ts'), wrapped);
  const original = { ...(await import(pathToFileURL(path.join(dir, 'original.ts')).href)) };
  const after = { ...(await import(pathToFileURL(path.join(dir, 'wrapped.ts')).href)) };
  assert.deepEqual(after, original);
  assert.equal(Object.keys(after).length, 13);

  for (const literal of KEPT) assert.ok(wrapped.includes(literal), literal);
  const long = wrapped.split('\n').filter((line) => line.length > MAX_LINE);
  assert.deepEqual(
    long.map((line) => KEPT.findIndex((literal) => line.includes(literal))),
    [0, 1, 2, 3],
  );
  assert.match(wrapped, /new RegExp\(/);
  const comment = wrapped.split('\n').filter((line) => line.startsWith('//'));
  assert.equal(comment.length, 3);
  assert.equal(
    comment.map((line) => line.slice(3)).join(' '),
    `A comment line over the limit is wrapped into more comment lines at the same indentation, ${tail}.`,
  );
  assert.equal(wrapSource(wrapped), wrapped, 'a second run changes nothing');
});

test('in an .astro file the frontmatter and <script> blocks are wrapped, the markup is not', () => {
  const markup = `<p class="long" data-a="1" data-b="2">{items.map((item) => <span>{item}</span>)} ${tail} ${tail}</p>`;
  const astro = [
    '---',
    `const title = 'In the frontmatter, ${tail}';`,
    '---',
    markup,
    '<script>',
    `  const note = \`In a script, \${document.title} ${tail}\`;`,
    '</script>',
    '',
  ].join('\n');
  const wrapped = wrapAstro(astro);
  const piece = (text: string) => `'${text}'`;
  assert.equal(
    wrapped,
    [
      '---',
      `const title = ${piece(`In the frontmatter, ${words.slice(0, -8)}`)} + ${piece(`indented, ${words}`)};`,
      '---',
      markup,
      '<script>',
      `  const note = \`In a script, \${document.title} ${words.slice(0, -22)}\` +`,
      `    ${piece(`however it is indented, ${words.slice(0, -8)}`)} +`,
      `    ${piece('indented')};`,
      '</script>',
      '',
    ].join('\n'),
  );
});
