// isInside(), the one containment check of the codebase: segment-wise after realpath. A folder named
// `..mine` inside an old build output was deleted, and `--out ..site` built inside the course, while
// the check treated every relative path starting with the two characters `..` as outside.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../../cli/testing.ts';
import { prng } from '../../cli/fuzz-cases.ts';
import { isInside, isInsideReal, isNormalizedAbsolute, realPathOf } from './inside.ts';

test('isInside compares whole segments: ..mine, ..site and a shared prefix are not outside or inside by their spelling', () => {
  const root = scratchDir('codelabgen-inside-');
  const cases: [string, string, boolean][] = [
    [path.join(root, 'a', '..mine'), path.join(root, 'a'), true],
    [path.join(root, 'a', '..site', 'x'), path.join(root, 'a'), true],
    [path.join(root, 'a', '...'), path.join(root, 'a'), true],
    [path.join(root, 'a'), path.join(root, 'a'), true],
    [`${path.join(root, 'a')}${path.sep}`, path.join(root, 'a'), true],
    [path.join(root, 'a'), `${path.join(root, 'a')}${path.sep}${path.sep}`, true],
    [path.join(root, 'a', 'b', '..'), path.join(root, 'a'), true],
    [path.join(root, 'a', '..'), path.join(root, 'a'), false],
    [path.join(root, 'a', '..', 'b'), path.join(root, 'a'), false],
    [path.join(root, 'ab'), path.join(root, 'a'), false],
    [path.join(root, 'a'), path.join(root, 'a', 'b'), false],
    [root, path.join(root, 'a'), false],
    ['/', path.join(root, 'a'), false],
    [path.join(root, 'a'), '/', true],
  ];
  for (const [child, parent, expected] of cases)
    assert.equal(isInside(child, parent), expected, `isInside(${child}, ${parent})`);
});

test('isInside resolves symlinks of both paths, also when the rest does not exist yet', () => {
  const root = scratchDir('codelabgen-inside-');
  mkdirSync(path.join(root, 'course', 'lesson'), { recursive: true });
  mkdirSync(path.join(root, 'outside'));
  symlinkSync(path.join(root, 'outside'), path.join(root, 'course', 'lesson', 'out-link'));
  symlinkSync(path.join(root, 'course'), path.join(root, 'course-link'));
  assert.equal(
    isInside(path.join(root, 'course', 'lesson', 'out-link', 'secret'), path.join(root, 'course')),
    false,
    'a link out of the folder',
  );
  assert.equal(isInside(path.join(root, 'course', 'lesson', 'out-link'), path.join(root, 'outside')), true);
  assert.equal(
    isInside(path.join(root, 'course-link', 'lesson', 'new', 'deep'), path.join(root, 'course')),
    true,
    'a link to the folder, a path not made yet',
  );
  assert.equal(isInside(path.join(root, 'course'), path.join(root, 'course-link')), true, 'identical after realpath');
  assert.equal(
    realPathOf(path.join(root, 'course-link', 'missing', 'x')),
    path.join(realPathOf(root), 'course', 'missing', 'x'),
  );
});

test('no containment check is written by hand anywhere: isInside is the only one', () => {
  const repo = path.resolve(import.meta.dirname, '..', '..');
  const handRolled = [
    /function (isInside|isWithin)\b/,
    /relative\([^)]*\)\s*\.startsWith\(\s*['"`]\.\./,
    /\.startsWith\(\s*['"`]\.\.['"`]\s*\)/,
    /\.startsWith\(\s*`\.\.\$\{path\.sep\}`\s*\)/,
  ];
  const found: string[] = [];
  for (const folder of ['content-schemas', 'pipeline', 'cli', 'site']) {
    for (const file of readdirSync(path.join(repo, folder), { recursive: true, encoding: 'utf8' })) {
      const rel = `${folder}/${file.split(path.sep).join('/')}`;
      if (!/\.(ts|mjs|astro)$/.test(rel) || rel.endsWith('.test.ts') || rel === 'pipeline/course/inside.ts') continue;
      const text = readFileSync(path.join(repo, rel), 'utf8');
      for (const pattern of handRolled) if (pattern.test(text)) found.push(`${rel}: ${pattern.source}`);
    }
  }
  assert.deepEqual(found, []);
});

/** A seeded path of 0-5 segments from pieces that path.resolve() and path.relative() treat apart. */
function randomPath(random: () => number, absolute: boolean): string {
  const pieces = ['a', 'b', 'ab', '', '.', '..', '...', '..a', '.a', 'a.', 'a\\b', ' '];
  const segments = Array.from({ length: Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]);
  return `${absolute ? '/' : ''}${segments.join('/')}${random() < 0.2 ? '/' : ''}`;
}

test('isNormalizedAbsolute is path.resolve(p) === p, and isInsideReal the path.relative rule, on 20,000 seeded paths', () => {
  const random = prng(7);
  const rule = (child: string, parent: string) => {
    const relative = path.relative(parent, child);
    return relative === '' || (!path.isAbsolute(relative) && relative.split(path.sep)[0] !== '..');
  };
  for (let n = 0; n < 20_000; n += 1) {
    const p = randomPath(random, random() < 0.9);
    assert.equal(isNormalizedAbsolute(p), path.resolve(p) === p, `isNormalizedAbsolute(${JSON.stringify(p)})`);
    // realPathOf's answers are normalized: compare on those
    const parent = path.resolve(randomPath(random, true));
    const child =
      random() < 0.5 ? path.resolve(parent, randomPath(random, false)) : path.resolve(randomPath(random, true));
    assert.equal(isInsideReal(child, parent), rule(child, parent), `isInsideReal(${child}, ${parent})`);
  }
});
