// A lock waiter's sleep ends when the lock (or its break guard) changes, and only then; without a
// watch the timer alone ends it. The lock protocol itself (waits, stale breaks, timeouts) is in
// lock.test.ts and lock-guard.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReleaseWatch } from './lock-wake.ts';

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'codelabgen-lock-wake-'));
  writeFileSync(path.join(dir, 'lock'), '{}\n');
  return dir;
}

// A sleep far longer than the test's timeout: only the release can end it in time.
test("removing the lock ends a waiter's sleep", { timeout: 60_000 }, async () => {
  const dir = folder();
  const watch = new ReleaseWatch(path.join(dir, 'lock'));
  try {
    const sleeping = watch.sleep(10 * 60_000);
    unlinkSync(path.join(dir, 'lock'));
    assert.equal(await sleeping, true);
  } finally {
    watch.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a change of the break guard ends it too', { timeout: 60_000 }, async () => {
  const dir = folder();
  const watch = new ReleaseWatch(path.join(dir, 'lock'));
  try {
    const sleeping = watch.sleep(10 * 60_000);
    writeFileSync(path.join(dir, 'lock.break'), '{}\n');
    assert.equal(await sleeping, true);
  } finally {
    watch.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('other files of the folder do not end it: the timer does', async () => {
  const dir = folder();
  const watch = new ReleaseWatch(path.join(dir, 'lock'));
  try {
    const sleeping = watch.sleep(300);
    writeFileSync(path.join(dir, 'state.json'), '{}\n');
    writeFileSync(path.join(dir, 'lock.123.abc.tmp'), '{}\n');
    unlinkSync(path.join(dir, 'state.json'));
    assert.equal(await sleeping, false);
  } finally {
    watch.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder that cannot be watched leaves the timer', async () => {
  const watch = new ReleaseWatch(path.join(tmpdir(), 'codelabgen-no-such-folder', 'lock'));
  assert.equal(await watch.sleep(5), false);
  watch.close();
});

test('a lock taken again before the waiter looks does not wake it (the next release will)', async () => {
  const dir = folder();
  const watch = new ReleaseWatch(path.join(dir, 'lock'));
  try {
    const sleeping = watch.sleep(300);
    // Released and taken by another waiter at once: both events arrive with the lock present.
    unlinkSync(path.join(dir, 'lock'));
    writeFileSync(path.join(dir, 'lock'), '{}\n');
    assert.equal(await sleeping, false);
  } finally {
    watch.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
