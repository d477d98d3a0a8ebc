// failingAtTheirPage (pipeline/site/diagrams.ts): the page that waits for a diagram is where a build that
// cannot succeed stops (Chromium that cannot start; a syntax error in a publish build), not the end of
// the build; a diagram drawn, one drawn client-side, and a syntax error in drafts let the page render.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../../cli/testing.ts';
import { ChecksFailedError } from '../course/errors.ts';
import { writeCacheEntry } from './diagram-cache.ts';
import { diagramRenderer, failingAtTheirPage, type DiagramJob } from './diagrams.ts';

/** A job drawing `hashes` whose waits settle at once and whose batch ends as `done` says. */
function job(hashes: string[], done: Promise<never> | 'ok'): DiagramJob {
  const ended = done === 'ok' ? Promise.resolve({ rendered: 0, cached: 0, failed: 0, client: 0 }) : done;
  ended.catch(() => {});
  const started = ended.then(() => {});
  started.catch(() => {});
  return { done: ended, drawn: () => Promise.resolve(), drawing: new Set(hashes), started };
}

function cacheWith(entries: Record<string, { svg: string | null; error: string | null }>): string {
  const dir = scratchDir('codelabgen-fail-fast-');
  for (const [hash, { svg, error }] of Object.entries(entries))
    writeCacheEntry(
      path.join(dir, `${hash}-${diagramRenderer()}.json`),
      JSON.stringify({ svg, light: null, dark: null, error }),
    );
  return dir;
}

const syntaxErrors = () => new ChecksFailedError('site build failed: lesson 1.1 diagram d.mmd ("d"): Parse error');

test('when Chromium cannot start, the first page waiting for a diagram fails with why, in drafts too', async () => {
  const cache = cacheWith({});
  const cannotStart = Promise.reject(new Error('could not start Chromium at /bin/false to draw the diagrams (x)'));
  for (const errors of [syntaxErrors, null]) {
    const failed = await failingAtTheirPage(job(['a'], cannotStart), cache, errors)
      .drawn('a')
      .then(
        () => null,
        (error: unknown) => error,
      );
    assert.ok(failed instanceof ChecksFailedError, `drafts: ${errors === null}: the page rendered`);
    assert.equal(failed.message, 'site build failed: could not start Chromium at /bin/false to draw the diagrams (x)');
  }
});

test('a syntax error fails its page in a publish build only; a drawn or client-side diagram renders', async () => {
  const cache = cacheWith({
    broken: { svg: null, error: 'Parse error on line 2' },
    fine: { svg: '<svg/>', error: null },
  });
  const publish = failingAtTheirPage(job(['broken', 'fine', 'undrawn'], 'ok'), cache, syntaxErrors);
  await assert.rejects(publish.drawn('broken'), /^ChecksFailedError: site build failed: lesson 1\.1 diagram d\.mmd/);
  await publish.drawn('fine');
  await publish.drawn('undrawn'); // the renderer could not draw it: client-side, the page renders
  await publish.drawn('cached-before'); // not drawn by this build: its page reads the cache
  await failingAtTheirPage(job(['broken'], 'ok'), cache, null).drawn('broken'); // drafts show the error
});
