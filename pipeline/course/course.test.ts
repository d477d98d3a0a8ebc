// Course resolution, artifact paths and path safety (insideCourse), and printable() for echoing
// untrusted values in one-line errors.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prng } from '../../cli/fuzz-cases.ts';
import {
  ARTIFACTS,
  abs,
  type Course,
  courseAt,
  escapeControl,
  insideCourse,
  lessonDirName,
  printable,
  resolveCourse,
} from './course.ts';
import { RefusalError } from './errors.ts';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'codelabgen-course-')));
after(() => rmSync(base, { recursive: true, force: true }));

const a = path.join(base, 'a');
const b = path.join(base, 'b');
const plain = path.join(base, 'plain');
for (const dir of [path.join(a, '.codelabgen'), path.join(a, 'sub', 'deeper'), path.join(b, '.codelabgen'), plain])
  mkdirSync(dir, { recursive: true });

function refusal(fn: () => unknown): RefusalError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof RefusalError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

test('resolveCourse: --course wins, then CODELABGEN_COURSE, then the nearest ancestor', () => {
  assert.equal(resolveCourse({ flag: b, env: a, cwd: plain }).root, b);
  assert.equal(resolveCourse({ flag: '../b', cwd: path.join(base, 'a') }).root, b, 'relative to cwd');
  assert.equal(resolveCourse({ env: b, cwd: path.join(a, 'sub') }).root, b);
  assert.equal(
    resolveCourse({ flag: '', env: '', cwd: path.join(a, 'sub', 'deeper') }).root,
    a,
    'empty values are unset',
  );
  assert.deepEqual(resolveCourse({ cwd: a }), { root: a, dir: path.join(a, '.codelabgen') });
});

test('resolveCourse refuses a folder that is not a course, naming where it came from', () => {
  assert.equal(
    refusal(() => resolveCourse({ flag: plain, cwd: base })).message,
    `--course ${plain}: not a course directory (no .codelabgen/ folder)`,
  );
  assert.equal(
    refusal(() => resolveCourse({ env: 'plain', cwd: base })).message,
    'CODELABGEN_COURSE plain: not a course directory (no .codelabgen/ folder)',
  );
  const none = refusal(() => resolveCourse({ cwd: plain }));
  assert.equal(
    none.message,
    'no course found: pass --course DIR, set CODELABGEN_COURSE, or run inside a course directory (one with .codelabgen/)',
  );
  assert.deepEqual(none.hints, ['create one with: codelabgen init DIR --title "Course title"']);
});

test('artifact paths follow docs/protocol.md (Course layout)', () => {
  assert.equal(ARTIFACTS.state, '.codelabgen/state.json');
  assert.equal(ARTIFACTS.lock, '.codelabgen/lock');
  assert.equal(ARTIFACTS.lessonSpec('1.2'), '.codelabgen/lessons/1.2/spec.yaml');
  assert.equal(ARTIFACTS.topics('mdn'), '.codelabgen/topics/mdn.jsonl');
  assert.equal(lessonDirName('1', 'basics', '1.2', 'routing'), '1-basics/1.2-routing');
  assert.deepEqual(courseAt('rel'), { root: path.resolve('rel'), dir: path.resolve('rel', '.codelabgen') });
});

test('insideCourse accepts relative paths inside the course, existing or not', () => {
  const course = courseAt(a);
  assert.equal(insideCourse(course, 'sub/deeper', 'dir'), path.join(a, 'sub', 'deeper'));
  assert.equal(insideCourse(course, 'new/file.ts', 'artifacts[0]'), path.join(a, 'new', 'file.ts'));
  assert.equal(
    insideCourse(course, './x..y/z', 'dir'),
    path.join(a, 'x..y', 'z'),
    '".." inside a name is not a segment',
  );
});

test('insideCourse refuses absolute paths, ".." segments, NUL and symlinks out, naming the field', () => {
  const course = courseAt(a);
  symlinkSync(plain, path.join(a, 'escape'));
  const cases: Array<[string, RegExp]> = [
    ['/etc/passwd', /^artifacts\[0\]: path "\/etc\/passwd" must be relative to the course, without "\.\." segments$/],
    ['../b/x', /^artifacts\[0\]: path "\.\.\/b\/x" must be relative/],
    ['sub/../../b', /must be relative/],
    ['sub\\..\\..\\b', /must be relative/],
    ['a\u0000b', /^artifacts\[0\]: path "a\\u0000b" must be relative/],
    [
      'escape/file',
      new RegExp(
        `^artifacts\\[0\\]: path "escape/file" resolves outside the course \\(${plain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/file\\)$`,
      ),
    ],
    ['escape', /resolves outside the course/],
  ];
  for (const [relative, message] of cases)
    assert.match(refusal(() => insideCourse(course, relative, 'artifacts[0]')).message, message, relative);
});

test('printable escapes control characters and caps the length', () => {
  assert.equal(printable('a\nb\u0000c"'), 'a\\nb\\u0000c\\"');
  assert.equal(printable('x'.repeat(300)).length, 80);
  assert.ok(printable('x'.repeat(300)).endsWith('...'));
  assert.equal(printable('short', 10), 'short');
});

/** abs() as it was written with node:path alone (path.join, path.resolve, path.relative). */
function absByPath(course: Course, relative: string): string | 'refused' {
  const realOf = (target: string): string => {
    const absolute = path.resolve(target);
    for (let probe = absolute; ; probe = path.dirname(probe)) {
      try {
        return path.join(realpathSync.native(probe), path.relative(probe, absolute));
      } catch {
        if (path.dirname(probe) === probe) return absolute;
      }
    }
  };
  const target = path.join(course.root, relative);
  const inside = path.relative(realOf(course.root), realOf(target));
  return inside !== '' && (path.isAbsolute(inside) || inside.split(path.sep)[0] === '..') ? 'refused' : target;
}

test('abs() answers what path.join and path.relative did, on 6,000 seeded paths, links out and in, odd roots', () => {
  const root = path.join(base, 'joined');
  mkdirSync(path.join(root, 'm', 'l'), { recursive: true });
  mkdirSync(path.join(base, 'beside'), { recursive: true });
  symlinkSync(path.join(base, 'beside'), path.join(root, 'm', 'out'));
  symlinkSync(path.join(root, 'm', 'l'), path.join(root, 'in'));
  symlinkSync(root, path.join(base, 'joined-link'));
  const courses: Course[] = [
    courseAt(root),
    { root: `${root}/`, dir: path.join(root, '.codelabgen') }, // not normalized: path.join's answer
    { root: path.join(base, 'joined-link'), dir: '' }, // through a link to the course
    courseAt('/'),
  ];
  const pieces = ['m', 'l', 'out', 'in', 'x.json', '.codelabgen', '', '.', '..', '...', '..m', '.m', 'm\\l'];
  const random = prng(11);
  for (let n = 0; n < 6_000; n += 1) {
    const course = courses[n % courses.length]!;
    const segments = Array.from(
      { length: 1 + Math.floor(random() * 4) },
      () => pieces[Math.floor(random() * pieces.length)],
    );
    const relative = `${random() < 0.05 ? '/' : ''}${segments.join('/')}${random() < 0.1 ? '/' : ''}`;
    let got: string;
    try {
      got = abs(course, relative);
    } catch (error) {
      assert.ok(error instanceof RefusalError, String(error));
      got = 'refused';
    }
    assert.equal(got, absByPath(course, relative), `abs(${course.root}, ${JSON.stringify(relative)})`);
  }
});

test('escapeControl escapes what its expression matches, short texts (checked by character code) and long, on 20,000 seeded texts', () => {
  const expression = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  const short: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  const byExpression = (text: string) =>
    text.replace(expression, (c) => short[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const random = prng(13);
  // every boundary of the class, and plain text around it
  const codes = [
    0x00, 0x1f, 0x20, 0x7e, 0x7f, 0x9f, 0xa0, 0x2027, 0x2028, 0x2029, 0x202a, 0x202e, 0x202f, 0x2065, 0x2066, 0x2069,
    0x206a,
  ];
  for (let n = 0; n < 20_000; n += 1) {
    const length = random() < 0.9 ? Math.floor(random() * 40) : 250 + Math.floor(random() * 20);
    const text = Array.from({ length }, () =>
      random() < 0.03
        ? String.fromCharCode(codes[Math.floor(random() * codes.length)]!)
        : 'ab c'[Math.floor(random() * 4)]!,
    ).join('');
    assert.equal(escapeControl(text), byExpression(text), JSON.stringify(text));
  }
});
