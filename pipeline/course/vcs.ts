// The folders a version-control system keeps in a working copy: history, remotes, and credentials
// (`.git/config` or `.hg/hgrc` with a remote's token, `[auth]` passwords). The one list every place reads
// that must keep them out of what a lesson's code sees, what the site publishes, what a code hash or
// a file listing counts and what the dev server watches; cli/scan-vcs-folders.test.ts fails when
// another production file names one of them.
export const VCS_FOLDERS = ['.git', '.hg', '.svn', '.bzr', '.jj', '.pijul', '_darcs'] as const;

const NAMES: ReadonlySet<string> = new Set(VCS_FOLDERS);

/** Whether a path component (a file or folder name) is a version-control folder. */
export function isVcsFolder(name: string): boolean {
  return NAMES.has(name);
}
