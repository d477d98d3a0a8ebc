// The site build's progress display: one line rewritten in place on a TTY (run under a pty with
// util-linux `script`), cleared before the result or an error; plain lines on a pipe (up to a
// failure here; a whole build's on pipeline/site/site-build.test.ts's first build). The piped
// build also checks --strict-diagrams (no Chromium: the diagram would be drawn in the browser).
// A whole build on a TTY is site/site-config.test.ts's one build (no build of its own here).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { generateCourse } from '../bench/generate-course.ts';
import { createOutput } from './output.ts';
import { cli, hasScript, onTerminal, readEvents, scratchDir } from './testing.ts';

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
});

test('site build clears its progress line before an error on a TTY and prints plain lines on a pipe; --strict-diagrams fails without Chromium', {
  skip: !hasScript && 'needs util-linux script',
  timeout: 300_000,
}, async () => {
  const dir = scratchDir();
  const course = path.join(dir, 'course');
  await generateCourse(course, { lessons: 1, perModule: 1, stageOf: () => 'done' });
  const env = { CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams'), CODELABGEN_CHROMIUM: 'none' };

  const empty = path.join(dir, 'empty');
  assert.equal(cli(['init', empty, '--title', 'No curriculum yet']).code, 0);
  const failed = onTerminal(['site', 'build', '--course', empty, '--out', path.join(dir, 'out2')]);
  assert.equal(failed.code, 2, failed.screen);
  assert.match(
    failed.screen,
    /^\r\x1b\[2Ksite build: loading: reading the course\r\x1b\[2Kerror: \.codelabgen\/curriculum\.yaml not found/,
    'the error starts on a cleared line, not after the progress text',
  );

  const events = readEvents(course).length;
  const piped = cli(['site', 'build', '--course', course, '--out', path.join(dir, 'out3'), '--strict-diagrams'], {
    env,
    timeoutMs: 300_000,
  });
  assert.equal(piped.code, 1, piped.stderr);
  const strictError =
    "error: site build: 1 diagram left to the reader's browser (no Chromium found, or it could not draw it); " +
    'install Chromium or set $CODELABGEN_CHROMIUM, or drop --strict-diagrams to accept that';
  // Plain progress lines on a pipe; the strict check stops the build before any page is written.
  assert.equal(
    piped.stderr,
    `site build: loading: reading the course\nsite build: diagrams: 1 diagrams\n${strictError}\n`,
  );
  assert.ok(!existsSync(path.join(dir, 'out3')), 'a failed strict build wrote its output folder');
  assert.equal(readEvents(course).length, events, 'a failed strict build was recorded as a site.build');
});
