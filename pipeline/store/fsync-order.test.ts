// The order of a change's durable steps, recorded from the store's own fs calls: the event is
// fsynced before the state.json that applies it is renamed into place, the new state.json's bytes
// are fsynced before its rename, and only a new state.json (init) syncs its folder; a replacement
// does not need to (docs/reliability.md, "fsyncs"). Recovery fsyncs the log before applying
// replayed events. Crash tests (crash.test.ts, cli/chaos.test.ts) show kill -9 at every step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Op = { op: 'fsync'; file: string } | { op: 'rename'; from: string; to: string };
const ops: Op[] = [];
const openFiles = new Map<number, string>();
const realOpen = fs.openSync;
const realFsync = fs.fsyncSync;
const realRename = fs.renameSync;
fs.openSync = ((file: fs.PathLike, ...rest: unknown[]) => {
  const fd = (realOpen as (...args: unknown[]) => number)(file, ...rest);
  openFiles.set(fd, path.basename(String(file)));
  return fd;
}) as typeof fs.openSync;
fs.fsyncSync = (fd: number) => {
  realFsync(fd);
  ops.push({ op: 'fsync', file: openFiles.get(fd) ?? `fd ${fd}` });
};
fs.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
  realRename(from, to);
  ops.push({ op: 'rename', from: path.basename(String(from)), to: path.basename(String(to)) });
};
syncBuiltinESMExports(); // the store's `import { fsyncSync } from 'node:fs'` bindings follow

const { createCourse } = await import('./create.ts');
const { commit, toEvent } = await import('./commit.ts');
const { loadState } = await import('./recover.ts');
const { decideLog, parseLogRequest } = await import('../protocol/log.ts');

const STATE_TEMP = /^state\.json\.\d+\.[0-9a-f]+\.tmp$/;
const at = (predicate: (op: Op) => boolean, what: string): number => {
  const index = ops.findIndex(predicate);
  assert.notEqual(index, -1, `${what} in ${JSON.stringify(ops)}`);
  return index;
};
const fsyncOf = (file: string | RegExp) => (op: Op) =>
  op.op === 'fsync' && (typeof file === 'string' ? op.file === file : file.test(op.file));
const stateRename = (op: Op) => op.op === 'rename' && STATE_TEMP.test(op.from) && op.to === 'state.json';

async function newCourse() {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'codelabgen-fsync-order-'));
  ops.length = 0;
  const { course } = await createCourse(root, { title: 'Order', topic: null, command: 'codelabgen init' });
  return { root, course };
}

test('init: event fsynced, then the new state.json fsynced and renamed, then its folder fsynced', async () => {
  const { root } = await newCourse();
  try {
    const event = at(fsyncOf('events.jsonl'), 'the event fsync');
    const temp = at(fsyncOf(STATE_TEMP), 'the state temp fsync');
    const rename = at(stateRename, 'the state rename');
    const folder = ops.findLastIndex(fsyncOf('.codelabgen')); // config.yaml's write syncs it first
    assert.ok(event < temp && temp < rename && rename < folder, JSON.stringify(ops));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a change: event fsynced before the state is renamed, no folder fsync', async () => {
  const { root, course } = await newCourse();
  try {
    ops.length = 0;
    await commit(course, { command: 'codelabgen state log order' }, (state) =>
      decideLog(state, parseLogRequest('order', [], null)),
    );
    const event = at(fsyncOf('events.jsonl'), 'the event fsync');
    const temp = at(fsyncOf(STATE_TEMP), 'the state temp fsync');
    const rename = at(stateRename, 'the state rename');
    assert.ok(event < temp && temp < rename, JSON.stringify(ops));
    assert.equal(ops.filter(fsyncOf('.codelabgen')).length, 0, JSON.stringify(ops));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('recovery fsyncs the log before the state that applies the replayed events', async () => {
  const { root, course } = await newCourse();
  try {
    // An event a killed writer appended but never fsynced (nor applied).
    const events = path.join(course.dir, 'events.jsonl');
    const state = JSON.parse(fs.readFileSync(path.join(course.dir, 'state.json'), 'utf8'));
    const event = toEvent(decideLog(state, parseLogRequest('unsynced', [], null)), state.last_seq + 1, {
      command: 'codelabgen state log unsynced',
    });
    fs.appendFileSync(events, `${JSON.stringify(event)}\n`);
    ops.length = 0;
    const { notices } = await loadState(course, 'codelabgen state show');
    assert.match(notices.join('\n'), /replayed 1 event/);
    const logSync = at(fsyncOf('events.jsonl'), 'the log fsync');
    const rename = at(stateRename, 'the state rename');
    assert.ok(logSync < rename, JSON.stringify(ops));
    assert.equal(ops.filter(fsyncOf('.codelabgen')).length, 0, JSON.stringify(ops));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
