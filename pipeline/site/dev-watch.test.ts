// After each sync, `site dev` asks the pages' content store which sync it holds and has it read the
// store again while it holds an older one (confirmServed, pipeline/site/dev-watch.ts): a page stale
// until the next save (seen in CI on a loaded machine) is mended within the same sync.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AskedChanges, confirmServed } from './dev-watch.ts';

/** A store that serves `answers` in turn (the last one for good), counting the reloads asked. */
function store(answers: Array<number | null | Error>) {
  let asked = 0;
  let reloads = 0;
  const lines: string[] = [];
  return {
    served: async () => {
      const answer = answers[Math.min(asked++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    reload: () => reloads++,
    trace: (line: string) => lines.push(line),
    reloads: () => reloads,
    lines,
  };
}

test('a store that serves the sync (or a newer one) is left alone', async () => {
  for (const served of [5, 6]) {
    const s = store([served]);
    assert.equal(await confirmServed(5, s.served, s.reload, s.trace, 0), 0);
    assert.equal(s.reloads(), 0);
  }
});

test('a store that serves an older sync is reloaded until it serves this one', async () => {
  const s = store([3, 4, 5]);
  assert.equal(await confirmServed(5, s.served, s.reload, s.trace, 0), 2);
  assert.equal(s.reloads(), 2);
  assert.deepEqual(s.lines, [
    'the pages serve sync 3',
    'reloading the content store (the pages serve sync 3 after sync 5)',
    'the pages serve sync 4',
    'reloading the content store (the pages serve sync 4 after sync 5)',
    'the pages serve sync 5',
  ]);
});

test('a store that never serves the sync is given up on after 20 reloads (-1: the terminal says so)', async () => {
  const s = store([2]);
  assert.equal(await confirmServed(5, s.served, s.reload, s.trace, 0), -1);
  assert.equal(s.reloads(), 20);
});

test('a store that cannot be asked (no runner, no course entry, an error) is taken as served', async () => {
  for (const answer of [null, new Error('runner closed')]) {
    const s = store([answer]);
    assert.equal(await confirmServed(5, s.served, s.reload, s.trace, 0), 0);
    assert.equal(s.reloads(), 0);
  }
});

test("an atomic save's temporary file reported gone after the sync was asked is no change; a file back or new is", () => {
  const files = new Set(['notes.md']);
  const asked = new AskedChanges((file) => files.has(file));
  // notes.md.tmp written, then renamed over notes.md: three reports, then the sync is asked.
  asked.changed('notes.md.tmp');
  asked.changed('notes.md.tmp');
  asked.changed('notes.md');
  asked.ask();
  // The removal of notes.md.tmp reported late: the sync read the course without it.
  assert.equal(asked.isEcho('notes.md.tmp'), true);
  assert.equal(asked.isEcho('notes.md'), false, 'a file that exists is a change');
  assert.equal(asked.isEcho('other.md.tmp'), false, 'a file not in the batch is a change');
  // The same name written again (another save): it exists, a change.
  files.add('notes.md.tmp');
  assert.equal(asked.isEcho('notes.md.tmp'), false);
  files.delete('notes.md.tmp');
  // A file that existed when the sync was asked and is gone now: a removal to sync.
  files.add('old.md');
  asked.changed('old.md');
  asked.ask();
  files.delete('old.md');
  assert.equal(asked.isEcho('old.md'), false);
  // Only the last sync's batch counts: the temporary file of two syncs ago is a change again.
  assert.equal(asked.isEcho('notes.md.tmp'), false);
});
