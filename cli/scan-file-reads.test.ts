// "A file read that trusts what the file is", closed by construction (docs/security.md "Reads"): a
// static scan fails when a module outside the one hardened reader opens or reads a file (fs read,
// open, copy or stream APIs), unless it is on FILE_READERS with the reason none of its paths is one a
// course, a worker, an agent or a client can name or plant, or why its reads are hardened in place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAllowListed } from './source-scan.ts';

/** The fs APIs that open or read a file's bytes (a copy reads too). */
const READ_APIS = new Set([
  'readFileSync',
  'readFile',
  'openSync',
  'open',
  'createReadStream',
  'copyFileSync',
  'copyFile',
  'cpSync',
  'cp',
  'openAsBlob',
]);

/** The one hardened reader: resolved inside its root, regular files only, non-blocking, no-follow, size-capped. */
const READER = new Set(['content-schemas/regular-file.ts', 'pipeline/course/confined.ts']);

const STORE = 'owned by the store (pipeline/store/): its own files of .codelabgen/, opened by type and size there';

/** Files outside the reader that may open or read files, and why. */
const FILE_READERS: Record<string, string> = {
  'bin/codelabgen.cjs':
    "the launcher: reads dist/state.cjs, its own bundle, and the V8 code cache in this user's own folder (codeCacheFolder: " +
    'a real folder of this user that no one else may write)',
  'cli/context.ts': 'reads stdin (fd 0): what the user piped in',
  'cli/commands/init.ts': "copies codelabgen's own CI template from the package",
  'pipeline/authoring/authoring.ts':
    "reads the lesson templates from codelabgen's own package (the course's curriculum goes through readTextFile)",
  'pipeline/artifacts/lesson-walk.ts':
    'the lesson-folder walker, hardened in place: lstat first, O_NOFOLLOW|O_NONBLOCK, regular files only, bounded, read in chunks (streamed)',
  'pipeline/verify/runs.ts':
    'run results of .codelabgen/runs/, hardened in place: O_NOFOLLOW|O_NONBLOCK, fstat-checked regular, size-capped',
  'pipeline/store/event-tail.ts': STORE,
  'pipeline/store/lock-files.ts': STORE,
  'pipeline/store/log.ts': STORE,
  'pipeline/store/state-file.ts': STORE,
  'pipeline/store/atomic-write.ts':
    'opens the files it creates for writing (O_EXCL temporaries) and their folder for fsync',
  'pipeline/store/unique-name.ts': 'reads /dev/urandom',
  'pipeline/store/process-identity.ts': "reads /proc/<pid>/stat, the kernel's own file",
  'pipeline/site/package-root.ts': "reads codelabgen's own package.json",
  'pipeline/store/change-recovery.ts':
    "reads a staged change's manifest inside .codelabgen/change.*.tmp/, a folder only the store creates, to finish or undo it",
  'pipeline/store/log-lines.ts': "streams the store's own events.jsonl in 1 MiB chunks (never into one buffer)",
  'pipeline/store/staged-change.ts':
    'copies a file the change replaces into its own staging folder, to put it back on failure',
  'pipeline/verify/sandbox.ts':
    "reads /proc/sys/kernel/apparmor_restrict_unprivileged_userns, the kernel's own setting",
  'pipeline/verify/run-tests.ts':
    "reads the kernel's own /proc/self/fdinfo (which descriptors a child would inherit) and opens /dev/null to put over them",
  'pipeline/verify/process-limit.ts':
    "reads the kernel's own files: /proc/self/cgroup and the pids.events of a cgroup it made for a lesson step",
  'pipeline/progress/notify-consent.ts':
    "reads the user's own consent file (~/.config/codelabgen/notify-allowed.json), never a course file",
  'pipeline/progress/notify.ts':
    'opens its own marker files exclusively (wx) in .codelabgen/notified/: a create, never a read of course content',
  'pipeline/site/diagram-parse.ts':
    'reads the parse outcomes kept in its per-user diagram cache (a folder only this user may write: diagramCacheDir)',
  'pipeline/site/diagrams.ts': 'reads its per-user diagram cache (a folder only this user may write: diagramCacheDir)',
  'pipeline/site/cache-sweep.ts': 'reads its per-user site cache (a folder only this user may write: cache-root.ts)',
  'pipeline/site/out-folder.ts': "reads and copies the build's own output and its marker in --out",
  'pipeline/site/search.ts': "reads the build's own output pages and its per-user search index cache",
  'pipeline/site/stats.ts': "reads the build's own output pages",
  'pipeline/site/svg-sanitize.ts': "rewrites the SVGs of the build's own output",
  'pipeline/site/mermaid-assets.ts': "copies mermaid's files from the installed package",
  'pipeline/site/mermaid-barrel-imports.ts':
    "reads the installed packages' own barrel files and package.json files that mermaid's imports resolve to",
  'pipeline/site/integration.ts':
    "streams mermaid's installed files to the dev server (kept inside that package by isInside)",
};

/** The read APIs a file takes from node:fs or node:fs/promises (a namespace, default import or require counts). */
export function fsReadApis(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/import\s+([^;]*?)\s+from\s+['"](?:node:)?fs(?:\/promises)?['"]/g)) {
    const clause = match[1] ?? '';
    if (/\*\s*as\s|^\s*[\w$]+\s*(,|$)/.test(clause)) found.add('(the whole fs module)');
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    for (const item of named.split(',')) {
      const name =
        item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0] ?? '';
      if (READ_APIS.has(name)) found.add(item.trim());
    }
  }
  if (/require\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\)/.test(code)) found.add('require(fs)');
  return [...found];
}

test('only the hardened reader opens or reads files; every other reader is allow-listed with its reason', () => {
  assertAllowListed({
    sitesOf: fsReadApis,
    allowed: FILE_READERS,
    skip: (file) => READER.has(file),
    unlisted:
      'read course files through readFileInside() (pipeline/course/confined.ts) or ' +
      'readRegularFile()/readTextFile() (content-schemas), or add the file to FILE_READERS with the reason none ' +
      'of its paths comes from a course, worker, agent or client',
    stale: 'these allow-listed files no longer read files: take them off FILE_READERS',
  });
});

test('the scan sees fs reads however they are imported, and not other fs APIs', () => {
  assert.deepEqual(fsReadApis("import { existsSync, readFileSync } from 'node:fs';"), ['readFileSync']);
  assert.deepEqual(fsReadApis("import {\n  lstatSync,\n  openSync,\n} from 'fs';"), ['openSync']);
  assert.deepEqual(fsReadApis("import { open as o } from 'node:fs/promises';"), ['open as o']);
  assert.deepEqual(fsReadApis("import * as fs from 'fs';"), ['(the whole fs module)']);
  assert.deepEqual(fsReadApis("import fs from 'node:fs';"), ['(the whole fs module)']);
  assert.deepEqual(fsReadApis("const fs = require('node:fs');"), ['require(fs)']);
  assert.deepEqual(fsReadApis("import { existsSync, statSync, type Stats } from 'node:fs';"), []);
});
