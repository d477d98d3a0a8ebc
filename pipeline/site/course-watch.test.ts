// The course watcher of `site dev` sees every edit an author makes: rename-saves (an editor's
// atomic save, `sed -i`) and the writes to the same file after them, in-place writes, deletes and
// files in new folders, 20 of each, each one reported before the next is made.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { scratchDir } from '../../cli/testing.ts';
import { watchFolder, type CourseWatcher } from './course-watch.ts';

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
