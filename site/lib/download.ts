// "Get the code" on a lesson page: the lesson folder as a .zip made at build time (fflate; fixed
// timestamps, so an unchanged lesson gives the same bytes) and the command that runs its tests.
import { zipSync, type Zippable } from 'fflate';
import { downloadNameProblem, type DownloadFile } from '../../pipeline/read/index.ts';

/** A lesson never verified: its files' time in the zip. */
const UNVERIFIED_TIME = new Date('2000-01-01T00:00:00Z');

/**
 * A zip of `files` under one folder named `folder` (what unzipping gives the learner), every entry
 * dated `time` (the verification's, so the zip changes only when the code or its verification does).
 */
export function lessonZip(folder: string, files: DownloadFile[], time: Date = UNVERIFIED_TIME): Uint8Array {
  const tree: Zippable = {};
  // readLessonDownload has left out every unsafe name already; a zip never carries one, whatever its caller.
  for (const file of files)
    if (downloadNameProblem(`${folder}/${file.path}`) === null)
      tree[`${folder}/${file.path}`] = [file.bytes, { mtime: time }];
  return zipSync(tree, { level: 6, mtime: time });
}

/** A size as a learner reads it: 512 KB, 3.1 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Flags the verifier adds for its own sake (pipeline/verify/runtime.ts), not needed by a learner. */
const VERIFIER_ONLY = [['-p', 'no:cacheprovider']];

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command a learner types in the unzipped folder to run the tests, from the argv of the run that
 * verified them: the program by its name (not the verifier's absolute path to node), without the
 * verifier's own flags, and for `uv run pytest <lesson folder>` without the folder (it is the current one).
 */
export function testCommand(
  run: { argv: string[]; runtime: string; cwd: string } | null,
  lessonDir: string,
): string | null {
  if (run === null || run.argv.length === 0) return null;
  let argv = [
    run.argv[0]!.includes('/') ? run.argv[0]!.slice(run.argv[0]!.lastIndexOf('/') + 1) : run.argv[0]!,
    ...run.argv.slice(1),
  ];
  for (const flags of VERIFIER_ONLY) {
    const at = argv.findIndex((_, i) => flags.every((f, k) => argv[i + k] === f));
    if (at >= 0) argv = [...argv.slice(0, at), ...argv.slice(at + flags.length)];
  }
  if (run.runtime === 'python-uv' && run.cwd !== lessonDir && argv.length > 0 && lessonDir.endsWith(argv.at(-1)!))
    argv = argv.slice(0, -1);
  return argv.map(shellWord).join(' ');
}
