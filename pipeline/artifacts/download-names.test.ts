// A lesson's download never carries a name an extractor reads as something else (issue 34.8): the
// zip held `folder/..\..\..\AppData\...\Startup\evil.bat`, which Windows extractors unpack two
// folders up. Such files (a backslash, a control character, a name Windows refuses) are left out of
// the zip, and `check` names each one.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { unzipSync } from 'fflate';
import { cli } from '../../cli/testing.ts';
import { courseAt, LESSON_DIRS } from '../../cli/protocol-fixture.ts';
import { lessonZip } from '../../site/lib/download.ts';
import { readLessonDownload } from '../read/index.ts';
import { downloadNameProblem } from './download-names.ts';

const EVIL = '..\\..\\..\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\evil.bat';

/** A course at the lessons phase whose lesson 1.1 holds the hostile names beside a good file. */
function hostileLesson(): { root: string; dir: string } {
  const root = courseAt('lessons');
  const dir = LESSON_DIRS['1.1']!;
  const lesson = path.join(root, dir);
  mkdirSync(path.join(lesson, 'src'), { recursive: true });
  writeFileSync(path.join(lesson, 'src', 'good.js'), 'export const good = 1;\n');
  writeFileSync(path.join(lesson, 'src', EVIL), '@echo pwned\n');
  writeFileSync(path.join(lesson, 'src', 'title\u001b]0;pwned\u0007.txt'), 'x\n');
  writeFileSync(path.join(lesson, 'src', 'aux:file.txt'), 'x\n');
  return { root, dir };
}

test('downloadNameProblem: a backslash, a control character or a name Windows refuses is refused; plain paths pass', () => {
  assert.equal(downloadNameProblem('src/good.js'), null);
  assert.equal(downloadNameProblem('src/a b-c_d.e.txt'), null);
  assert.match(downloadNameProblem(`src/${EVIL}`) ?? '', /backslash/);
  assert.match(downloadNameProblem('src/a\u001bb') ?? '', /control character \("\\u001b"\)/);
  assert.match(downloadNameProblem('src/a\nb') ?? '', /control character \("\\n"\)/);
  assert.match(downloadNameProblem('src/a:b') ?? '', /":", which Windows refuses/);
  assert.match(downloadNameProblem('../a') ?? '', /"\.\." part/);
  assert.match(downloadNameProblem('/etc/passwd') ?? '', /empty/);
});

test('the lesson zip leaves out files with unsafe names and keeps the rest; check names each one left out (a warning, exit 0)', {
  timeout: 60_000,
}, () => {
  const { root, dir } = hostileLesson();
  const files = readLessonDownload(root, dir);
  const entries = Object.keys(unzipSync(lessonZip(path.basename(dir), files)));
  assert.ok(entries.includes(`${path.basename(dir)}/src/good.js`), entries.join('\n'));
  for (const entry of entries) assert.equal(downloadNameProblem(entry), null, `unsafe entry in the zip: ${entry}`);
  assert.ok(!entries.some((entry) => entry.includes('evil.bat') || entry.includes('pwned')), entries.join('\n'));
  const check = cli(['check'], { cwd: root });
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.match(check.stdout, /lesson downloads: file names safe on every system/);
  assert.match(
    check.stdout,
    new RegExp(
      String.raw`- warning: lesson 1\.1: src\/\.\.\\\\\.\.\\\\\.\.\\\\AppData.*evil\.bat is left out of the lesson's ` +
        'download: its name holds a backslash, a folder separator to Windows; rename it$',
      'm',
    ),
  );
  assert.match(
    check.stdout,
    /- warning: lesson 1\.1: src\/title\\u001b\]0;pwned\\u0007\.txt is left out of the lesson's download: its name holds a control character/m,
  );
  assert.match(check.stdout, /- warning: lesson 1\.1: src\/aux:file\.txt is left out .*"\:", which Windows refuses/m);
  assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(check.stdout), 'raw control characters in check output');
});
