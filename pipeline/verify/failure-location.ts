// Where a failed run failed, drawn from its output: the first `file:line` that names a file of the
// lesson's own (a stack frame, node --test's `location:`, pytest's `test_x.py:12: AssertionError`),
// so that CI can annotate that line (cli/github-actions.ts). Paths inside the sandbox are the real ones.
import { statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../course/inside.ts';

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** A path ending in a file extension, then `:line` (and maybe `:column`). */
const FILE_LINE = /(?:file:\/\/)?((?:[A-Za-z]:)?[\w@%+~./\\-]*[\w@%+~-]\.[A-Za-z0-9]{1,8}):(\d{1,7})\b/g;

export interface FailureLocation {
  /** Absolute path of a regular file inside the lesson folder. */
  file: string;
  /** 1-based line. */
  line: number;
}

/** The first place in `output` that is a file inside `lessonDir` (not under node_modules or a hidden folder), or null. */
export function failureLocation(output: string, lessonDir: string): FailureLocation | null {
  for (const match of output.replace(ANSI, '').matchAll(FILE_LINE)) {
    const written = decodeFileUrlPath(match[1]!);
    const file = path.resolve(lessonDir, written);
    const line = Number(match[2]);
    if (line < 1 || !isInside(file, lessonDir) || file === lessonDir) continue;
    const parts = path.relative(lessonDir, file).split(path.sep);
    if (parts.some((part) => part === 'node_modules' || part.startsWith('.'))) continue;
    if (isRegularFile(file)) return { file, line };
  }
  return null;
}

function decodeFileUrlPath(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a lone % is part of the name
  }
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false; // gone or unreadable: not a place to annotate
  }
}
