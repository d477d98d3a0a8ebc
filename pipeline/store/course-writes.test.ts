// A write applied before it is committed (issue 34, item 7) is closed in one place: commands write
// course files only through pipeline/store (staged-change.ts: staged, then moved in once the event
// is durable). This scan fails when any other module imports a file-writing API of node:fs (or the
// store's low-level writers), so the next command cannot write around it. Each allowed module
// says why it may, and must still write (no stale entries).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../cli/testing.ts';

const WRITE_APIS = new Set([
  'appendFile',
  'appendFileSync',
  'chmod',
  'chmodSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'createWriteStream',
  'ftruncate',
  'ftruncateSync',
  'link',
  'linkSync',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'rename',
  'renameSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'symlink',
  'symlinkSync',
  'truncate',
  'truncateSync',
  'unlink',
  'unlinkSync',
  'utimes',
  'utimesSync',
  'writeFile',
  'writeFileSync',
]);
/** The store's own low-level writers: only the store itself calls them. */
const STORE_WRITERS = ['writeFileAtomic', 'writeNewFileDurably', 'fsyncDir', 'safeUnlink', 'tempPathFor'];

/** Modules outside pipeline/store/ that may write files, and why none of them writes a course file behind the store's back. */
const ALLOWED: Record<string, string> = {
  'pipeline/site/':
    'the site build writes its --out folder (never inside the course but site-out/) and per-user caches (docs/security.md, "The site build")',
  'pipeline/verify/test-caches.ts':
    "removes the caches a lesson's test run created in its lesson folder (the run's own writes)",
  'pipeline/verify/lesson-changes.ts':
    "removes a `.git` repository a lesson's test run made in its lesson folder (the run's own write, found by the walk, never through a link)",
  'pipeline/verify/fixtures.ts': 'test fixtures: builds courses in temp folders for the verify tests',
  'pipeline/verify/process-limit.ts':
    "makes, sets and removes a pids cgroup under /sys/fs/cgroup for one lesson step: the kernel's files, never the course's",
  'cli/github-actions.ts':
    'appends the job summary to $GITHUB_STEP_SUMMARY, a file the GitHub runner names outside the course',
  'pipeline/progress/notify-consent.ts':
    "writes the user's own consent file (~/.config/codelabgen/notify-allowed.json), never inside a course",
  'pipeline/progress/notify.ts':
    'marker files created exclusively in .codelabgen/notified/ and lines appended to .codelabgen/notify.log, ' +
    'after the commit: losing one costs a repeated notification, never state',
  'cli/testing.ts': 'test helpers: temp folders and copies of courses',
  'cli/course-cache.ts': 'test helpers: the course fixtures shared by a run, in a temp folder',
  'cli/fuzz-cases.ts': 'test cases: plants hostile files in a copy of a course',
  'cli/hostile-trees.ts': 'test cases: plants hostile files and links in a copy of a course for the fuzzer',
  'cli/protocol-fixture.ts': 'test fixtures: writes courses for the protocol tests',
  'cli/package-fixture.ts': 'test fixtures: the packed-package tests',
  'cli/workflow-run.ts': "the CI workflow rehearsal: a runner's workspace in temp folders",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.includes('node_modules/'));
}

/** The write APIs a module imports from node:fs (named, or used through a namespace) and the store writers it imports. */
function writesOf(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(?:node:)?fs(?:\/promises)?'/g))
    for (const name of (match[1] ?? '').split(',').map((part) => part.trim().split(/\s+as\s+/)[0] ?? ''))
      if (WRITE_APIS.has(name)) found.add(name);
  for (const match of text.matchAll(/import\s+(?:\*\s+as\s+)?(\w+)\s+from\s*'(?:node:)?fs(?:\/promises)?'/g))
    for (const use of text.matchAll(new RegExp(`\\b${match[1]}\\.(\\w+)\\(`, 'g')))
      if (WRITE_APIS.has(use[1] ?? '')) found.add(`${match[1]}.${use[1]}`);
  for (const use of text.matchAll(/getBuiltinModule\('node:fs(?:\/promises)?'\)\.(\w+)/g))
    if (WRITE_APIS.has(use[1] ?? '')) found.add(use[1] ?? '');
  for (const writer of STORE_WRITERS) if (new RegExp(`\\b${writer}\\b`).test(text)) found.add(writer);
  if (/openSync\([^;]*?(['"](?:w|wx|w\+|a|ax|a\+|r\+)['"]|O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC)/.test(text))
    found.add('openSync for writing');
  return [...found].sort();
}

const allowedFor = (file: string) =>
  Object.keys(ALLOWED).find((entry) => file === entry || (entry.endsWith('/') && file.startsWith(entry)));

test('only pipeline/store/ (and the allowed modules) write files: every course write goes through staged changes', {
  timeout: 60_000,
}, () => {
  const offenders: string[] = [];
  const used = new Set<string>();
  for (const file of ['pipeline', 'cli', 'content-schemas', 'site'].flatMap(sourceFiles)) {
    if (file.startsWith('pipeline/store/')) continue;
    const writes = writesOf(readFileSync(path.join(REPO_ROOT, file), 'utf8'));
    if (writes.length === 0) continue;
    const allowed = allowedFor(file);
    if (allowed === undefined) offenders.push(`${file}: ${writes.join(', ')}`);
    else used.add(allowed);
  }
  assert.deepEqual(
    offenders,
    [],
    'write course files through pipeline/store (commitChange, writeCourseFiles, createCourseFile)',
  );
  assert.deepEqual(
    Object.keys(ALLOWED).filter((entry) => !used.has(entry)),
    [],
    'allowed modules that no longer write: drop them',
  );
});

test('the scan sees each way a module can import a write API', { timeout: 10_000 }, () => {
  assert.deepEqual(writesOf("import { readFileSync, writeFileSync as w } from 'node:fs';"), ['writeFileSync']);
  assert.deepEqual(writesOf("import fs from 'node:fs';\nfs.renameSync(a, b);"), ['fs.renameSync']);
  assert.deepEqual(writesOf("import * as fsp from 'node:fs/promises';\nawait fsp.writeFile(a, b);"), ['fsp.writeFile']);
  assert.deepEqual(writesOf("process.getBuiltinModule('node:fs').mkdirSync(dir);"), ['mkdirSync']);
  assert.deepEqual(writesOf("import { writeFileAtomic } from '../store/atomic-write.ts';"), ['writeFileAtomic']);
  assert.deepEqual(writesOf("const fd = openSync(file, 'wx', 0o644);"), ['openSync for writing']);
  assert.deepEqual(
    writesOf("import { readFileSync, statSync } from 'node:fs';\nopenSync(file, constants.O_RDONLY);"),
    [],
  );
});
