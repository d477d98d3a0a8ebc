// The build's diagram renderer (pipeline/site/diagrams.ts): diagrams are drawn one after another in
// the order given and each is in the cache, and its wait settled, as soon as it is drawn, so a page
// never waits for the whole batch; and the Chromium that draws them reaches no address a diagram names.
// Needs a Chromium (skipped without one).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../../cli/testing.ts';
import { diagramCacheDir, findChromium, leftToBrowserWarning, readCachedDiagram, startDiagrams } from './diagrams.ts';
import { diagramHash } from './segments.ts';

const chromium = findChromium();
const ref = (source: string, i: number) => ({
  hash: diagramHash(source),
  source,
  label: `d${i}.mmd`,
  title: `d${i}`,
  lesson: '1.1',
});

test('each diagram is cached as soon as it is drawn, the first long before the batch; a syntax error is cached as ' +
  'the error; light-and-dark types get both SVGs', {
  skip: chromium === null && 'no Chromium',
  timeout: 120_000,
}, async () => {
  const cache = scratchDir('codelabgen-diagrams-');
  // 12 renders (a gantt chart is drawn twice): one page, so Chromium loads mermaid once.
  const flows = Array.from({ length: 9 }, (_, i) => ref(`flowchart LR\n  A${i}[Step ${i}] --> B${i}[Next]\n`, i));
  const broken = ref('flowchart LR\n  A --> --> B[\n', 9);
  const gantt = ref('gantt\n  title Plan\n  dateFormat YYYY-MM-DD\n  section S\n  Task :a1, 2026-01-01, 3d\n', 10);
  const diagrams = [...flows, broken, gantt];
  const job = startDiagrams(diagrams, cache, chromium);
  assert.equal(job.drawing.size, 11);
  let finished = false;
  void job.done.then(() => (finished = true));
  await job.drawn(flows[0]!.hash);
  const cachedThen = readdirSync(cache).length;
  assert.notEqual(readCachedDiagram(cache, flows[0]!.hash), null, 'settled before its cache entry was written');
  assert.equal(finished, false, 'the first diagram waited for the whole batch');
  assert.ok(cachedThen < 11, `${cachedThen} of 11 diagrams were cached when the first settled`);
  await Promise.all(diagrams.map((d) => job.drawn(d.hash)));
  assert.deepEqual(await job.done, { rendered: 10, cached: 0, failed: 1, client: 0 });
  // Themed diagrams are one SVG whose ids are the content hash's, so two never clash on a page.
  const entry = readCachedDiagram(cache, flows[7]!.hash)!;
  assert.match(entry.svg!, new RegExp(`^<svg[^>]* id="m${flows[7]!.hash}"`));
  assert.equal(entry.light, null);
  assert.match(readCachedDiagram(cache, broken.hash)!.error!, /parse error/i);
  const pair = readCachedDiagram(cache, gantt.hash)!;
  assert.match(pair.light!, new RegExp(`^<svg[^>]* id="m${gantt.hash}l"`));
  assert.match(pair.dark!, new RegExp(`^<svg[^>]* id="m${gantt.hash}d"`));
  // Drawn again: everything comes from the cache and nothing waits.
  const again = startDiagrams(diagrams, cache, chromium);
  assert.equal(again.drawing.size, 0);
  assert.deepEqual(await again.done, { rendered: 0, cached: 11, failed: 0, client: 0 });
});

test("a diagram's addresses (images, styles; https, http, loopback) reach nothing from the build's Chromium", {
  skip: chromium === null && 'no Chromium',
  timeout: 120_000,
}, async () => {
  // A listener on loopback (a service only this machine reaches) that counts connections, TLS or not.
  let connections = 0;
  const listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  try {
    const at = (scheme: string, host: string, name: string) => `${scheme}//${host}:${port}/${name}`;
    const labels = [
      `<img src='${at('https:', '127.0.0.1', 'img')}'>`,
      `<img src='${at('https:', 'localhost', 'img')}'>`,
      `<img src='${at('http:', '127.0.0.1', 'mixed')}'>`,
      `<img src='${at('', '127.0.0.1', 'relative-scheme')}'>`,
      `<span style='background-image:url(${at('https:', '127.0.0.1', 'css')})'>css</span>`,
    ];
    const source = `flowchart LR\n${labels.map((label, i) => `  N${i}["${label}"]`).join(' --> ')}\n`;
    const job = startDiagrams([ref(source, 0)], scratchDir('codelabgen-diagrams-'), chromium);
    assert.deepEqual(await job.done, { rendered: 1, cached: 0, failed: 0, client: 0 });
    assert.equal(connections, 0, `the build's Chromium connected ${connections} times to the addresses of a diagram`);
  } finally {
    await new Promise((resolve) => listener.close(resolve));
  }
});

test('without Chromium nothing is drawn and nothing waits: the diagrams are left to the browser', async () => {
  const cache = scratchDir('codelabgen-diagrams-');
  const job = startDiagrams([ref('flowchart LR\n  A --> B\n', 0)], cache, null);
  assert.equal(job.drawing.size, 0);
  assert.deepEqual(await job.done, { rendered: 0, cached: 0, failed: 0, client: 1 });
  assert.deepEqual(readdirSync(cache), []);
});

test("the line a build says when it leaves diagrams to the reader's browser names why and how to draw them at build time", () => {
  const left = "left to the reader's browser, not drawn at build time: ";
  assert.equal(
    leftToBrowserWarning(1, null, {}),
    `1 mermaid diagram ${left}no Chromium found (at $CODELABGEN_CHROMIUM, /usr/bin/chromium-headless-shell, /usr/bin/chromium or Playwright's own); ` +
      'install one with npx playwright install chromium, or set CODELABGEN_CHROMIUM to the path of a Chromium',
  );
  assert.equal(
    leftToBrowserWarning(3, null, { CODELABGEN_CHROMIUM: 'none' }),
    `3 mermaid diagrams ${left}CODELABGEN_CHROMIUM=none turns build-time drawing off; unset it to draw them at build time`,
  );
  assert.equal(
    leftToBrowserWarning(2, '/opt/chromium', { CODELABGEN_CHROMIUM: '/opt/chromium' }),
    `2 mermaid diagrams ${left}the Chromium at /opt/chromium could not draw them; the next build tries again`,
  );
});

test('a diagram cache folder another user could plant is passed over: its SVGs go into pages as they are', () => {
  const shared = scratchDir('codelabgen-shared-diagrams-');
  chmodSync(shared, 0o1777);
  mkdirSync(path.join(shared, 'codelabgen', 'diagrams'), { recursive: true });
  chmodSync(path.join(shared, 'codelabgen', 'diagrams'), 0o777);
  const chosen = diagramCacheDir({ XDG_CACHE_HOME: shared });
  assert.ok(!chosen.startsWith(shared), chosen);
  assert.equal(statSync(chosen).mode & 0o777, 0o700);
  const linked = scratchDir('codelabgen-linked-diagrams-');
  symlinkSync(scratchDir('codelabgen-planted-'), path.join(linked, 'cache'));
  assert.ok(!diagramCacheDir({ CODELABGEN_DIAGRAM_CACHE: path.join(linked, 'cache') }).startsWith(linked));
  const own = path.join(scratchDir('codelabgen-own-diagrams-'), 'cache');
  assert.equal(diagramCacheDir({ CODELABGEN_DIAGRAM_CACHE: own }), own);
});
