// An events.jsonl over 2 GiB (issue 34, item 11): the log was read into one buffer, so every
// command exited 3, `state rebuild` included. It is streamed now: a log that grew a 2 GiB tail of
// NUL bytes (a sparse extension, as a crashed or hostile writer leaves it) is a torn last line,
// moved aside (sparse, so it costs no disk) by the first command (its recovery) or by `state rebuild`.
// Each test reads the 2 GiB twice (the scan, the copy), on /dev/shm where there is one (memoryTempDir):
// the file took 2.6 core-s there, 7-9 core-s on ext4 (kernel time, filling the page cache with the hole).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { cli, memoryTempDir, readEvents, readState, scratchCourse } from '../../cli/testing.ts';

const GIB = 1024 ** 3;
const TORN_NOTICE = new RegExp(
  String.raw`^warning: recovered: the last line of \.codelabgen/events\.jsonl was torn \(2147483649 bytes, ` +
    String.raw`an interrupted write\); moved to \.codelabgen/events\.jsonl\.torn-\d+$`,
  'm',
);

/**
 * A course whose log has two events and then 2 GiB + 1 NUL bytes (a hole: no disk used), in memory
 * where there is a tmpfs (memoryTempDir): each read of the hole costs far less kernel time there.
 */
function courseWithHugeLog(): { root: string; goodBytes: number } {
  const root = path.join(memoryTempDir(), 'course');
  cpSync(scratchCourse(), root, { recursive: true, verbatimSymlinks: true });
  assert.equal(cli(['state', 'log', 'acked'], { cwd: root }).code, 0);
  const log = path.join(root, '.codelabgen', 'events.jsonl');
  const goodBytes = statSync(log).size;
  truncateSync(log, goodBytes + 2 * GIB + 1);
  return { root, goodBytes };
}

function tornCopies(root: string): string[] {
  return readdirSync(path.join(root, '.codelabgen')).filter((name) => name.startsWith('events.jsonl.torn-'));
}

for (const command of [
  ['state', 'show', '--json'],
  ['state', 'rebuild'],
]) {
  test(`${command.join(' ')} repairs a log with a 2 GiB garbage tail: the tail is moved aside whole and sparse`, {
    timeout: 300_000,
  }, () => {
    const { root, goodBytes } = courseWithHugeLog();
    const result = cli(command, { cwd: root });
    assert.equal(result.code, 0, result.stderr);
    if (command[1] === 'show') assert.match(result.stderr, TORN_NOTICE);
    assert.equal(statSync(path.join(root, '.codelabgen', 'events.jsonl')).size, goodBytes);
    const [copy, ...more] = tornCopies(root);
    assert.deepEqual(more, []);
    const kept = statSync(path.join(root, '.codelabgen', copy ?? ''));
    assert.equal(kept.size, 2 * GIB + 1, 'the torn tail is kept whole');
    assert.ok(kept.blocks * 512 < 1024 * 1024, `the copy is sparse: ${kept.blocks * 512} bytes on disk`);
    assert.deepEqual(
      readEvents(root).map((event) => event.seq),
      [1, 2],
    );
    assert.equal(readState(root).last_seq, 2);
    const next = cli(['state', 'log', 'after'], { cwd: root });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(cli(['check'], { cwd: root }).code, 0);
  });
}
