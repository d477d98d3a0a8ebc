// The course watcher of `site dev` sees every edit an author makes: rename-saves (an editor's
// atomic save, `sed -i`) and the writes to the same file after them, in-place writes, deletes and
// files in new folders, 20 of each, each one reported before the next is made.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { prng } from '../../cli/fuzz-cases.ts';
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

/**
 * Waits until `check()` holds, polling; fails naming `what` after `ms`: a hang guard, not a budget. The
 * watcher runs in this process: starved of CPU (docs/testing.md, "No premise a loaded machine breaks"),
 * its rescans and grace run late with this poll, and a 15 s wait for a write the rescan reports ran out
 * under scripts/stall-hunt.ts --seed 1 --max-ms 8000 (this process stalled 4-8 s again and again).
 */
async function until(check: () => boolean, what: string, ms = 120_000): Promise<void> {
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

/** A file's version as the watcher tells them apart (inode, size, mtime in ns), or null when it is gone. */
function version(file: string): string | null {
  if (!existsSync(file)) return null;
  const stat = statSync(file, { bigint: true });
  return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

test('a write just after a reported one, whose own event is lost, is reported by the rescan', async () => {
  const course = scratchDir('codelabgen-rescan-');
  const file = path.join(course, 'notes.md');
  writeFileSync(file, '# Notes\n');
  let drop = false;
  const reports: Array<string | null> = [];
  const missed: string[] = [];
  const live = watchFolder(course, (changed) => changed === file && reports.push(version(file)), {
    // Rescans as far apart as in use (2 s at the least): the truncate and the write fall between two.
    rescanMs: 2000,
    dropEvent: () => drop,
    onMissed: (changed) => missed.push(changed),
  });
  try {
    await live.ready;
    // An editor that truncates, then writes: the truncate is reported, the write's event is lost.
    const fd = openSync(file, 'w');
    await until(() => reports.length === 1, 'the truncate was never reported');
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the watcher's own second look
    drop = true;
    writeSync(fd, '# Notes\n\nwritten after the truncate\n');
    closeSync(fd);
    await until(() => reports.at(-1) === version(file), 'the write after a reported truncate was never reported');
    assert.deepEqual(missed, [file]);
  } finally {
    await live.close();
  }
});

test('generative: whatever edits the file watcher loses, every file ends reported as it is (6 seeds, 30 edits each)', async () => {
  await Promise.all(
    [1, 2, 3, 4, 5, 6].map(async (seed) => {
      const random = prng(seed);
      const next = (n: number) => Math.floor(random() * n);
      const course = scratchDir('codelabgen-rescan-');
      const files = ['a.md', path.join('docs', 'c.md')].map((name) => path.join(course, name));
      mkdirSync(path.join(course, 'docs'));
      for (const file of files) writeFileSync(file, 'start\n');
      const last = new Map<string, string | null>(); // file → its version when last reported
      let dropping = false;
      const live = watchFolder(course, (changed) => last.set(changed, version(changed)), {
        rescanMs: 1000, // several edits between two rescans, as in use
        dropEvent: () => dropping, // the events of the edit last made, when it is one to lose
      });
      try {
        await live.ready;
        for (const file of files) last.set(file, version(file));
        const log: string[] = [];
        for (let edit = 0; edit < 30; edit++) {
          const file = files[next(files.length)]!;
          const how = next(4);
          dropping = next(2) === 0; // half of the edits are never reported by the file watcher
          log.push(
            `${['write', 'rename-save', 'truncate, then write', 'delete'][how]} ${path.relative(course, file)}${dropping ? ' (lost)' : ''}`,
          );
          if (how === 0) writeFileSync(file, `edit ${edit}\n`);
          else if (how === 1) {
            writeFileSync(`${file}.tmp`, `edit ${edit}\n`);
            renameSync(`${file}.tmp`, file);
          } else if (how === 2) {
            const fd = openSync(file, 'w');
            await new Promise((resolve) => setTimeout(resolve, next(200)));
            writeSync(fd, `edit ${edit}\n`);
            closeSync(fd);
          } else rmSync(file, { force: true });
          // Past the watcher's second look (120 ms), and several edits between two rescans.
          await new Promise((resolve) => setTimeout(resolve, 130 + next(200)));
        }
        dropping = false;
        const settled = () => files.every((file) => last.get(file) === version(file));
        await until(settled, `seed ${seed}: a file not reported as it ended, after ${log.join('; ')}`);
      } finally {
        await live.close();
      }
    }),
  );
});

test('rescans are paced by their CPU time: every 2 s for a small course, 2 % of the time for a big one, 15 s apart at most', () => {
  assert.deepEqual(
    [0, 20, 40, 100, 200, 300, 1000, 60_000].map(rescanDelay),
    [2000, 2000, 2000, 5000, 10_000, 15_000, 15_000, 15_000],
  );
});
