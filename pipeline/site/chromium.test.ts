// findChromium (pipeline/site/chromium.ts): $CODELABGEN_CHROMIUM is the user's choice, kept even when
// nothing is at that path (the launch then fails naming it: site-errors.test.ts), never replaced by
// another browser unsaid; `none` turns drawing off; unset, the system's places are looked at in order.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { findChromium, SYSTEM_CHROMIUMS } from './chromium.ts';

test('a $CODELABGEN_CHROMIUM that names no file is still the one used, not a system Chromium', () => {
  assert.equal(findChromium({ CODELABGEN_CHROMIUM: '/no/such/chromium' }), '/no/such/chromium');
  assert.equal(findChromium({ CODELABGEN_CHROMIUM: '/bin/false' }), '/bin/false');
});

test('CODELABGEN_CHROMIUM=none finds none; unset (or empty), the first system Chromium that exists', () => {
  assert.equal(findChromium({ CODELABGEN_CHROMIUM: 'none' }), null);
  const system = SYSTEM_CHROMIUMS.find((candidate) => existsSync(candidate));
  if (system === undefined) return; // no system Chromium here: Playwright's own or none, not checked
  assert.equal(findChromium({}), system);
  assert.equal(findChromium({ CODELABGEN_CHROMIUM: '' }), system);
});
