// The line-length check of `npm run lint` (scripts/line-length.ts) fails naming file:line for a planted
// long line, and leaves alone what biome.json excludes and generated files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MAX_LINE } from './long-lines.ts';

const CHECK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'line-length.ts');

/** A git work tree with a biome.json excluding `examples` and fixtures, and the given files. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'codelabgen-line-length-'));
  const biome = { files: { includes: ['**', '!examples', '!**/fixtures', '!**/*.md'] } };
  writeFileSync(path.join(root, 'biome.json'), JSON.stringify(biome));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const init = spawnSync('git', ['init', '-q'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  assert.equal(init.status, 0, init.stderr);
  return root;
}

function check(root: string) {
  return spawnSync(process.execPath, [CHECK, '--root', root], { encoding: 'utf8', timeout: 60_000 });
}

const line = (length: number) => `const s = '${'x'.repeat(length - 13)}';`;

test('a planted line over the limit fails the check, named file:line with its length', { timeout: 120_000 }, (t) => {
  const root = tree({
    'src/a.ts': `${line(40)}\n${line(MAX_LINE + 1)}\n`,
    'site/b.astro': `---\n---\n<p>${'y'.repeat(MAX_LINE)}</p>\n`,
    'src/ok.ts': `${line(MAX_LINE)}\n`,
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const result = check(root);
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stdout, '');
  assert.equal(
    result.stderr,
    `site/b.astro:3: line of ${MAX_LINE + 7} characters, over ${MAX_LINE}\n` +
      `src/a.ts:2: line of ${MAX_LINE + 1} characters, over ${MAX_LINE}\n` +
      `error: 2 hand-written lines over ${MAX_LINE} characters; ` +
      'split them (node scripts/wrap-long-lines.ts splits long strings, regexes and comments)\n',
  );
});

test('lines of the limit pass; biome.json excludes, generated files and other kinds of file are not checked', {
  timeout: 120_000,
}, (t) => {
  const long = `${line(MAX_LINE + 40)}\n`;
  const root = tree({
    'src/ok.ts': `${line(MAX_LINE)}\n`,
    'examples/a.ts': long,
    'pipeline/fixtures/b.ts': long,
    'content-schemas/validators.generated.ts': long,
    'notes/c.md': long,
  });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const result = check(root);
  assert.equal(result.stderr, '');
  assert.equal(result.status, 0);
});
