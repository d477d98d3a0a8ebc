// Course data printed for people never carries a live terminal escape: block reasons, task notes,
// titles and test output show control characters escaped; titles refuse them outright. Everything
// human goes through cli/output.ts's one filter (terminalText), state watch's screen included.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';
import { courseAt, ok, refused } from './protocol-fixture.ts';
import { cli, cliAsync, scratchCourse, untilDrawnOnTerminal } from './testing.ts';
import { terminalText } from './output.ts';
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

const OSC_CLIPBOARD = `${ESC}]52;c;cHduZWQ=\u0007`;
/** Any control character but a line break; the bidi overrides and line separators too. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

test('state watch shows block reasons and --data values with their escape sequences escaped, on a pipe and on a terminal (issue 34.9)', {
  timeout: 300_000,
}, async (t) => {
  const root = courseAt('lessons');
  ok(root, 'state', 'block', '1.2', '--reason', `needs a key ${OSC_TITLE}${CSI_CLEAR}\u009b31m`);
  ok(root, 'state', 'log', 'source-unreachable', '--data', `url=${OSC_CLIPBOARD}`);
  const watch = cliAsync(['state', 'watch', '--course', root]);
  t.after(() => watch.child.kill('SIGKILL'));
  let stdout = '';
  watch.child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  // A hang guard, not a budget: at nice 10 beside busy cores a CLI took 4-7 s to start (docs/testing.md).
  for (let waited = 0; !stdout.includes('\n') && waited < 120_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  watch.child.kill('SIGINT');
  const piped = (await watch.done).stdout;
  assert.ok(!RAW_CONTROL.test(piped), `raw control characters on the pipe: ${JSON.stringify(piped)}`);
  assert.match(piped, /needs a human: codelabgen state unblock 1\.2/);
  assert.match(piped, /last: fact source-unreachable: url=\\u001b\]52;c;cHduZWQ=\\u0007\n$/);
  if (spawnSync('script', ['--version']).status !== 0)
    return t.diagnostic('no script(1): the terminal case is skipped');
  // On a terminal (script(1) gives one), in colour: only the screen's own codes are live. The watch
  // is ended (Ctrl-C) once it has drawn the board, not after a fixed 2 s a loaded machine outlasts.
  const painted = /\x1b\[31mblocked 1\x1b\[39m/;
  const reason = /lesson 1\.2 is blocked \(user\): needs a key \\u001b\]0;pwned\\u0007\\u001b\[2J/;
  const screen = await untilDrawnOnTerminal(
    ['state', 'watch', '--course', root],
    { NO_COLOR: '', FORCE_COLOR: '' },
    (shown) => painted.test(shown) && reason.test(shown),
  );
  assert.match(screen, painted, 'the board is painted');
  assert.match(screen, reason);
  assert.doesNotMatch(screen, /\x1b\]|\u0007|\u009b/, 'an OSC (title, clipboard) or a C1 CSI reached the terminal');
  assert.equal((screen.match(/\x1b\[2J/g) ?? []).length, 1, 'only the watch itself clears the screen, once');
});

test('terminalText escapes every control character but line breaks, tabs and, with colour, the codes paint() writes', () => {
  const painted = `\x1b[1mbold\x1b[22m`;
  assert.equal(terminalText(`a${OSC_TITLE}\tb\nc${CSI_CLEAR}`, false), 'a\\u001b]0;pwned\\u0007\tb\nc\\u001b[2J');
  assert.equal(terminalText(painted, true), painted);
  assert.equal(terminalText(painted, false), '\\u001b[1mbold\\u001b[22m');
  assert.equal(
    terminalText(`${ESC}[5m\u009b2J\u202e`, true),
    '\\u001b[5m\\u009b2J\\u202e',
    'codes paint() never writes',
  );
});
