// A write the disk or the system refused (ENOSPC, EDQUOT, EROFS, EACCES, EIO...) as the one-line
// refusal every writer of the store gives: `cannot write <path>: <reason> (<CODE>); <outcome>`.
import os from 'node:os';
import { RefusalError, StoreWriteError, errorCode, writeErrorReason } from '../course/errors.ts';

/** `error` as a StoreWriteError naming `file` (course-relative), or itself when it is no system error (a bug: exit 3). */
export function writeFailure(error: unknown, file: string, outcome: string): Error {
  if (error instanceof RefusalError) return error;
  const code = errorCode(error);
  if (code === undefined || !/^E[A-Z]+$/.test(code)) return error as Error;
  return new StoreWriteError(
    `cannot write ${file}: ${writeErrorReason(error)} (${code}); ${outcome}`,
    [`free space or fix permissions on ${os.hostname()}, then retry`],
    { cause: error },
  );
}
