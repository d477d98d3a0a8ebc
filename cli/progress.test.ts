// The site build's progress display: one line rewritten in place on a TTY (run under a pty with
// util-linux `script`), cleared before the result or an error; plain lines on a pipe (a whole
// build's on pipeline/site/site-build.test.ts's first build; up to a failure, --strict-diagrams
// without Chromium, on pipeline/site/cache-installs.test.ts's first build, which starts the worker
// anyway). A whole build on a TTY is site/site-config.test.ts's one build (no build of its own here).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { courseWithLessons } from '../pipeline/verify/fixtures.ts';
import { createOutput } from './output.ts';
import { cli, hasScript, onTerminal, scratchDir } from './testing.ts';

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const stream = { isTTY, columns: 40, text: '', write: (chunk: string) => ((stream.text += chunk), true) };
  return stream as unknown as NodeJS.WriteStream & { text: string };
}

test('status rewrites one stderr line on a TTY and is cleared before the next output', () => {
  const stdout = fakeStream(true);
  const stderr = fakeStream(true);
  const out = createOutput(stdout, stderr, {});
  out.status('site build: loading: reading the course');
  out.status('site build: pages: a very long detail that does not fit in forty columns');
  out.warn('warning: x');
  out.status('site build: search: indexing');
  out.clearStatus();
  out.clearStatus();
  assert.equal(
    stderr.text,
    '\r\x1b[2Ksite build: loading: reading the course\r\x1b[2Ksite build: pages: a very long detail ' +
      't\r\x1b[2Kwarning: x\n\r\x1b[2Ksite build: search: indexing\r\x1b[2K',
  );
  const piped = fakeStream(false);
  const quiet = createOutput(fakeStream(false), piped, {});
  quiet.status('site build: loading');
  quiet.clearStatus();
  assert.equal(piped.text, '', 'no status lines on a pipe');
  const dumb = fakeStream(true);
  createOutput(fakeStream(true), dumb, { TERM: 'dumb' }).status('site build: loading');
  assert.equal(dumb.text, '', 'a status line on a terminal that cannot move the cursor (TERM=dumb)');
  const noColor = fakeStream(true);
  createOutput(fakeStream(true), noColor, { NO_COLOR: '1' }).status('site build: loading');
  assert.equal(noColor.text, '\r\x1b[2Ksite build: loading', 'NO_COLOR took the progress line off');
});

test('verify --all on a terminal: NO_COLOR keeps the progress line and takes every colour off; TERM=dumb: plain lines; a redirected stderr: no colour', {
  skip: !hasScript && 'needs util-linux script',
  timeout: 300_000,
}, async () => {
  const nodeTest = (assertion: string) =>
    `import test from 'node:test';\nimport assert from 'node:assert/strict';\n` +
    `test('waits', async () => { await new Promise((resolve) => setTimeout(resolve, 300)); ${assertion}; });\n`;
  const course = await courseWithLessons([
    { id: '1.1', files: { 'a.test.mjs': nodeTest('assert.equal(1 + 1, 2)') }, stage: 'verified' },
    { id: '1.2', files: { 'a.test.mjs': nodeTest('assert.equal(1 + 1, 3)') }, stage: 'verified' },
  ]);
  const args = ['verify', '--all', '--jobs', '1', '--course', course.root];
  const SGR = /\x1b\[[0-9;]*m/;
  const noColor = onTerminal(args, { NO_COLOR: '1', FORCE_COLOR: undefined, TERM: 'xterm' });
  assert.equal(noColor.code, 1, noColor.screen);
  assert.match(noColor.screen, /\r\x1b\[2K\[0\/2\] running 1\.1 /, 'no progress line under NO_COLOR');
  assert.doesNotMatch(noColor.screen, SGR, 'a colour under NO_COLOR');
  assert.match(noColor.screen, /^1\.2 +FAILED /m);

  const dumb = onTerminal(args, { NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'dumb' });
  assert.equal(dumb.code, 1, dumb.screen);
  assert.doesNotMatch(dumb.screen, /\x1b/, 'escape codes on TERM=dumb');
  assert.match(dumb.screen, /^1\.1 +passed +\S+\n1\.2 +FAILED /m);
  const dir = scratchDir();
  const empty = path.join(dir, 'empty');
  assert.equal(cli(['init', empty, '--title', 'No curriculum yet']).code, 0);
  const site = onTerminal(['site', 'build', '--course', empty, '--out', path.join(dir, 'out')], { TERM: 'dumb' });
  assert.equal(site.code, 2, site.screen);
  assert.match(
    site.screen,
    /^site build: loading: reading the course\nerror: /,
    'site build drew its progress line on TERM=dumb',
  );

  // Colour on stdout's terminal; stderr (the lesson lines) to a file: no colour there.
  const log = path.join(scratchDir(), 'stderr.log');
  const split = onTerminal(args, { NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm' }, { stderrTo: log });
  assert.equal(split.code, 1, split.screen);
  assert.match(split.screen, SGR, 'no colour on the terminal');
  const logged = readFileSync(log, 'utf8');
  assert.doesNotMatch(logged, /\x1b/, 'escape codes in the redirected stderr');
  assert.match(logged, /^1\.2 +FAILED /m);
});

test('site build clears its progress line before an error on a TTY', {
  skip: !hasScript && 'needs util-linux script',
}, () => {
  const dir = scratchDir();
  const empty = path.join(dir, 'empty');
  assert.equal(cli(['init', empty, '--title', 'No curriculum yet']).code, 0);
  const failed = onTerminal(['site', 'build', '--course', empty, '--out', path.join(dir, 'out2')]);
  assert.equal(failed.code, 2, failed.screen);
  assert.match(
    failed.screen,
    /^\r\x1b\[2Ksite build: loading: reading the course\r\x1b\[2Kerror: \.codelabgen\/curriculum\.yaml not found/,
    'the error starts on a cleared line, not after the progress text',
  );
});
