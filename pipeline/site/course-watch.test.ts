// The course watcher of `site dev` sees every edit an author makes: rename-saves (an editor's
// atomic save, `sed -i`) and the writes to the same file after them, in-place writes, deletes and
// files in new folders, 20 of each, each one reported before the next is made.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { scratchDir } from '../../cli/testing.ts';
import { rescanDelay, watchFolder, type CourseWatcher } from './course-watch.ts';

const EDITS = 20;
/** How long one edit may take to be reported before the test calls it missed. */
const MISSED_MS = 3000;

const dir = scratchDir('codelabgen-watch-');
const lessonDocs = path.join(dir, 'lessons', '1.1-intro', 'docs');
let watcher: CourseWatcher;
const seen: string[] = [];
let waiting: { file: string; resolve: () => void } | null = null;

before(async () => {
  mkdirSync(lessonDocs, { recursive: true });
  writeFileSync(path.join(lessonDocs, 'readalong.md'), '# Readalong\n');
  writeFileSync(path.join(lessonDocs, 'notes.md'), '# Notes\n');
  mkdirSync(path.join(dir, 'node_modules', 'x'), { recursive: true });
  watcher = watchFolder(dir, (file) => {
    seen.push(path.relative(dir, file));
    if (waiting !== null && path.resolve(file) === path.resolve(waiting.file)) waiting.resolve();
  });
  await watcher.ready;
});

after(async () => {
  await watcher.close();
});

/** Makes one edit and waits until the watcher reports `file`; fails when it never does. */
async function edit(file: string, change: () => void, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const reported = new Promise<void>((resolve, reject) => {
    waiting = { file, resolve };
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what}: ${path.relative(dir, file)} was never reported (seen: ${seen.slice(-5).join(', ') || 'nothing'})`,
          ),
        ),
      MISSED_MS,
    );
  });
  change();
  try {
    await reported;
  } finally {
    clearTimeout(timer);
    waiting = null;
  }
}

test('rename-saves, and writes to the same file after each of them, are all reported', async () => {
  const file = path.join(lessonDocs, 'readalong.md');
  for (let i = 0; i < EDITS; i++) {
    await edit(
      file,
      () => {
        writeFileSync(`${file}.tmp`, `# Readalong\n\nsaved by rename ${i}\n`);
        renameSync(`${file}.tmp`, file);
      },
      `rename-save ${i + 1}`,
    );
    await edit(
      file,
      () => writeFileSync(file, `# Readalong\n\nwritten in place after rename ${i}\n`),
      `write after rename-save ${i + 1}`,
    );
  }
});

test('in-place writes are all reported', async () => {
  const file = path.join(lessonDocs, 'notes.md');
  for (let i = 0; i < EDITS; i++)
    await edit(file, () => writeFileSync(file, `# Notes\n\nedit ${i}\n`), `write ${i + 1}`);
});

test('deletes are all reported', async () => {
  for (let i = 0; i < EDITS; i++) {
    const file = path.join(lessonDocs, `extra-${i}.md`);
    await edit(file, () => writeFileSync(file, 'x\n'), `create ${i + 1}`);
    await edit(file, () => rmSync(file), `delete ${i + 1}`);
  }
});

test('files in new folders are reported, and later writes to them too', async () => {
  for (let i = 0; i < EDITS; i++) {
    const folder = path.join(dir, 'lessons', `2.${i + 1}-new`, 'docs');
    const file = path.join(folder, 'readalong.md');
    await edit(
      file,
      () => {
        mkdirSync(folder, { recursive: true });
        writeFileSync(file, '# New\n');
      },
      `new folder ${i + 1}`,
    );
    await edit(file, () => writeFileSync(file, '# New\n\nedited\n'), `write in new folder ${i + 1}`);
  }
});

test('installed code and caches inside the course are not watched', () => {
  assert.deepEqual(
    seen.filter((file) => file.split(path.sep).includes('node_modules')),
    [],
  );
});

/** Waits until `check()` holds, polling; fails naming `what` after `ms`. */
async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('what the file watcher never reports, the rescan does: changes, new files in new folders, deletes; ignored paths never', async () => {
  const course = path.join(scratchDir('codelabgen-rescan-'), 'course');
  const docs = path.join(course, 'lessons', '1.1-intro', 'docs');
  mkdirSync(docs, { recursive: true });
  mkdirSync(path.join(course, 'site-out'), { recursive: true });
  writeFileSync(path.join(docs, 'notes.md'), '# Notes\n');
  const reported: string[] = [];
  const missed: string[] = [];
  // No file-system events at all: only the rescan can see anything.
  const quiet = watchFolder(course, (file) => reported.push(path.relative(course, file)), {
    events: false,
    rescanMs: 100,
    ignore: (relative) => relative.split(path.sep)[0] === 'site-out',
    onMissed: (file) => missed.push(path.relative(course, file)),
  });
  try {
    await quiet.ready;
    const notes = path.join('lessons', '1.1-intro', 'docs', 'notes.md');
    writeFileSync(path.join(course, notes), '# Notes\n\nedited\n');
    await until(() => reported.includes(notes), 'an edit the watcher never reported');
    const fresh = path.join('lessons', '2.1-new', 'docs', 'readalong.md');
    mkdirSync(path.dirname(path.join(course, fresh)), { recursive: true });
    writeFileSync(path.join(course, fresh), '# New\n');
    writeFileSync(path.join(course, 'site-out', 'index.html'), '<p>built</p>');
    await until(() => reported.includes(fresh), 'a file in a new folder the watcher never reported');
    rmSync(path.join(course, notes));
    await until(() => reported.filter((file) => file === notes).length === 2, 'a delete the watcher never reported');
    assert.deepEqual(missed, reported, 'each missed change is also named to onMissed');
    assert.equal(reported.filter((file) => file.startsWith('site-out')).length, 0, 'an ignored path is not scanned');
  } finally {
    await quiet.close();
  }
});

test('with the file watcher working the rescan reports nothing twice, and a course under a node_modules folder is watched', async () => {
  // Under a folder named node_modules: only the path inside the course decides what is ignored.
  const course = path.join(scratchDir('codelabgen-rescan-'), 'node_modules', 'course');
  mkdirSync(path.join(course, 'docs'), { recursive: true });
  const file = path.join(course, 'docs', 'notes.md');
  writeFileSync(file, '# Notes\n');
  const reports: string[] = [];
  const missed: string[] = [];
  const live = watchFolder(course, (changed) => reports.push(changed), {
    rescanMs: 50,
    onMissed: (changed) => missed.push(changed),
  });
  try {
    await live.ready;
    for (let i = 0; i < EDITS; i++) {
      const before = reports.length;
      writeFileSync(file, `# Notes\n\nedit ${i}\n`);
      await until(() => reports.length > before, `edit ${i + 1} was never reported`);
    }
    // Several rescans after the last edit: none finds anything the watcher had not reported.
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(missed, []);
  } finally {
    await live.close();
  }
});

test('rescans are paced by their CPU time: every 2 s for a small course, 2 % of the time for a big one, 15 s apart at most', () => {
  assert.deepEqual(
    [0, 20, 40, 100, 200, 300, 1000, 60_000].map(rescanDelay),
    [2000, 2000, 2000, 5000, 10_000, 15_000, 15_000, 15_000],
  );
});
