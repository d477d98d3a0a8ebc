// Course data printed for people never carries a live terminal escape: block reasons, task notes,
// titles and test output show control characters escaped; titles refuse them outright.
import assert from 'node:assert/strict';
import test from 'node:test';
import { courseAt, ok, refused } from './protocol-fixture.ts';
import { cli, scratchCourse } from './testing.ts';
import { describeError } from './settle.ts';
import { RefusalError } from '../pipeline/course/errors.ts';

const ESC = '\u001b';
const OSC_TITLE = `${ESC}]0;pwned\u0007`;
const CSI_CLEAR = `${ESC}[2J`;

test('state show and state task list show the ESC and OSC bytes of block reasons and task notes escaped', () => {
  const root = courseAt('lessons');
  ok(root, 'state', 'block', '1.1', '--reason', `needs a key ${OSC_TITLE}${CSI_CLEAR}\u009b31m`);
  const task = ok(root, 'state', 'task', 'start', '2.1').trim();
  ok(root, 'state', 'task', 'fail', task, '--note', `worker said ${CSI_CLEAR}\nforged line`);
  const show = cli(['state', 'show'], { cwd: root });
  assert.equal(show.code, 0, show.stderr);
  assert.ok(
    !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(show.stdout),
    `raw control characters in: ${JSON.stringify(show.stdout)}`,
  );
  assert.match(show.stdout, /BLOCKED \(user\): needs a key \\u001b\]0;pwned\\u0007\\u001b\[2J\\u009b31m/);
  const list = cli(['state', 'task', 'list'], { cwd: root });
  assert.equal(list.code, 0, list.stderr);
  assert.ok(
    !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(list.stdout),
    `raw control characters in: ${JSON.stringify(list.stdout)}`,
  );
  assert.match(list.stdout, /failed .*worker said \\u001b\[2J\\nforged line\n$/);
  assert.equal(list.stdout.split('\n').filter(Boolean).length, 1, 'a newline in a note forges no line');
});

test('new module and new lesson refuse a title with a newline or a control character (exit 2, nothing changed)', () => {
  const root = scratchCourse();
  refused(
    root,
    ['new', 'module', 'Basics\nphase: done'],
    /^error: new module: the title has a line break \("\\n" at character 7\); a title is one line of plain text$/,
  );
  refused(
    root,
    ['new', 'module', `Basics ${CSI_CLEAR}`],
    /^error: new module: the title has a control character \("\\u001b" at character 8\); a title is one line of plain text$/,
  );
  refused(
    root,
    ['new', 'module', 'Basics', '--lesson', 'Intro\u0085'],
    /^error: new module: --lesson: the title has a control character \("\\u0085" at character 6\)/,
  );
  ok(root, 'new', 'module', 'Basics');
  refused(
    root,
    ['new', 'lesson', '1', `Second\r`],
    /^error: new lesson: the title has a line break \("\\r" at character 7\)/,
  );
});

test('error and hint lines escape C1 controls and bidi overrides too (a file name a test wrote, named in a refusal)', () => {
  const name = `data/x\u009b2J\u202eevil\u2028.bin`;
  const { text } = describeError(
    new RefusalError(`1-basics/1.1-intro/${name} is 3.0 GiB, over the 100 MiB limit for one lesson file`, [
      `delete ${name}`,
    ]),
  );
  assert.ok(
    !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(text),
    `raw control characters in: ${JSON.stringify(text)}`,
  );
  assert.equal(text.split('\n').length, 3, text);
  assert.match(text, /^error: 1-basics\/1\.1-intro\/data\/x\?2J\?evil\?\.bin is 3\.0 GiB/);
});
