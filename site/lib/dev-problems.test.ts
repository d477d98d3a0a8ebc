// The dev server (pipeline/site/dev-watch.ts) and the page's banner (site/components/DevLive.astro,
// through site/lib/dev-problems.ts) name the same HMR event and the same globalThis key; they are
// written twice because pipeline/ never imports site/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  DEV_PROBLEMS_EVENT,
  DEV_PROBLEMS_KEY,
  DEV_SERVED_EVENT,
  DEV_STALE_EVENT,
} from '../../pipeline/site/dev-watch.ts';
import { DEV_PROBLEMS, devProblems } from './dev-problems.ts';

test("the dev server and the banner agree on the events' names and the problems key", () => {
  assert.equal(DEV_PROBLEMS, DEV_PROBLEMS_EVENT);
  assert.ok(
    readFileSync(new URL('../components/DevLive.astro', import.meta.url), 'utf8').includes(
      `const DEV_PROBLEMS = '${DEV_PROBLEMS_EVENT}';`,
    ),
    "DevLive.astro's script names another event",
  );
  assert.ok(
    readFileSync(new URL('../components/DevLive.astro', import.meta.url), 'utf8').includes(
      `const DEV_SERVED = '${DEV_SERVED_EVENT}';`,
    ),
    "DevLive.astro's script names another event for the sync served",
  );
  assert.ok(
    readFileSync(new URL('../components/DevLive.astro', import.meta.url), 'utf8').includes(
      `const DEV_STALE = '${DEV_STALE_EVENT}';`,
    ),
    "DevLive.astro's script names another event for a page that did not get the sync served",
  );
  Reflect.set(globalThis, DEV_PROBLEMS_KEY, ['a.yaml: bad', 7]);
  assert.deepEqual(devProblems(), ['a.yaml: bad']);
  Reflect.deleteProperty(globalThis, DEV_PROBLEMS_KEY);
});
