// The collections' reads of the course in `site dev` (site/lib/course-snapshot.ts): one read per
// sync, and a sync Astro starts on its own never stores a read older than the last change reported.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { prng } from '../../cli/fuzz-cases.ts';
import * as devWatch from '../../pipeline/site/dev-watch.ts';
import { ASKED_GENERATION, courseSnapshots, DEV_TRACE, LOADED_GENERATION, markLoaded } from './course-snapshot.ts';

afterEach(() => {
  for (const key of [ASKED_GENERATION, LOADED_GENERATION, DEV_TRACE]) Reflect.deleteProperty(globalThis, key);
});

/** A course whose content is a counter bumped by each "save". */
function course() {
  let saved = 0;
  let reads = 0;
  const read = () => {
    reads++;
    return `save ${saved}`;
  };
  return { read, save: () => saved++, reads: () => reads };
}

test('the dev watcher and the loaders name the same globalThis keys', () => {
  assert.equal(devWatch.ASKED_GENERATION, ASKED_GENERATION);
  assert.equal(devWatch.LOADED_GENERATION, LOADED_GENERATION);
  assert.equal(devWatch.DEV_TRACE, DEV_TRACE);
});

test('the six collections of one sync share one read; the next sync reads again', () => {
  const c = course();
  const view = courseSnapshots(c.read);
  for (let i = 0; i < 6; i++) assert.equal(view('/course', undefined), 'save 0'); // start-up
  assert.equal(c.reads(), 1);
  c.save();
  Reflect.set(globalThis, ASKED_GENERATION, 1);
  for (let i = 0; i < 6; i++) assert.equal(view('/course', 1), 'save 1');
  assert.equal(c.reads(), 2);
  assert.equal(view('/other', 1), 'save 1', 'another course is another read');
  assert.equal(c.reads(), 3);
});

test("a sync Astro starts after a save reads the save, not the start-up's read", () => {
  const c = course();
  const view = courseSnapshots(c.read);
  assert.equal(view('/course', undefined), 'save 0'); // Astro's start-up sync
  c.save(); // reported: dev-watch asks for sync 1 ...
  Reflect.set(globalThis, ASKED_GENERATION, 1);
  // ... and Astro's own sync (a content config reload) runs first, or after it: both see the save.
  assert.equal(view('/course', undefined), 'save 1');
  assert.equal(view('/course', 1), 'save 1');
  assert.equal(c.reads(), 2, "sync 1 shares the read Astro's own sync made after it was asked");
  assert.equal(view('/course', undefined), 'save 1');
  assert.equal(c.reads(), 2);
});

test('generative: whatever the order of saves, syncs asked and Astro-started syncs, each read is as new as the last save reported', () => {
  const random = prng(20261202);
  const next = (n: number) => Math.floor(random() * n);
  for (let run = 0; run < 200; run++) {
    const c = course();
    const view = courseSnapshots(c.read);
    let asked = 0;
    let reported = 0; // saves reported to dev-watch (each followed by a sync asked)
    for (let step = 0; step < 40; step++) {
      const move = next(3);
      if (move === 0) {
        c.save();
        reported++;
        Reflect.set(globalThis, ASKED_GENERATION, ++asked);
      } else {
        const generation = move === 1 ? asked : undefined;
        if (move === 1 && asked === 0) continue;
        assert.equal(view('/course', generation), `save ${reported}`, `run ${run} step ${step}`);
      }
    }
    Reflect.deleteProperty(globalThis, ASKED_GENERATION);
  }
});

test('markLoaded keeps the newest generation; an Astro-started sync marks nothing', () => {
  markLoaded(undefined);
  assert.equal(Reflect.get(globalThis, LOADED_GENERATION), undefined);
  markLoaded(3);
  markLoaded(2);
  assert.equal(Reflect.get(globalThis, LOADED_GENERATION), 3);
});

test("an Astro-started sync after start-up leaves a trace: line when dev-watch's trace is on", () => {
  const lines: string[] = [];
  Reflect.set(globalThis, DEV_TRACE, (line: string) => lines.push(line));
  const view = courseSnapshots(course().read);
  view('/course', undefined); // start-up: nothing asked yet, no line
  Reflect.set(globalThis, ASKED_GENERATION, 4);
  view('/course', 4);
  view('/course', undefined);
  assert.deepEqual(lines, ['a sync Astro started reads the course as of sync 4 (already read)']);
});
