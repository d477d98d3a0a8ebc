// Typed errors the pipeline throws, each carrying its exit code (content-schemas/errors.ts); only
// cli/run.ts turns them into messages and that code. RefusalError → 2 (nothing changed), ChecksFailedError → 1.
import { CodelabgenError, EXIT, type ExitCode } from '../../content-schemas/fast.ts';

export { CodelabgenError, EXIT, type ExitCode };

/** The command refused: nothing changed; exit 2. */
export class RefusalError extends CodelabgenError {
  readonly exitCode = EXIT.refused;
  constructor(message: string, hints: string[] = [], options?: ErrorOptions) {
    super(message, hints, options);
    this.name = 'RefusalError';
  }
}

/** A write that the disk or the operating system refused (ENOSPC, EIO, EACCES, EROFS...): exit 2. */
export class StoreWriteError extends RefusalError {
  constructor(message: string, hints: string[] = [], options?: ErrorOptions) {
    super(message, hints, options);
    this.name = 'StoreWriteError';
  }
}

/** The command ran and found problems (check, verify): exit 1. */
export class ChecksFailedError extends CodelabgenError {
  readonly exitCode = EXIT.checkFailed;
  constructor(message: string, options: { quiet?: boolean } = {}) {
    super(message, [], options);
    this.name = 'ChecksFailedError';
  }
}

/** An error reported by another process (the site worker) as its exit code and printed lines. */
export class RelayedError extends CodelabgenError {
  readonly exitCode: ExitCode;
  constructor(exitCode: ExitCode, message: string, hints: string[] = []) {
    super(message, hints);
    this.name = 'RelayedError';
    this.exitCode = exitCode;
  }
}

export function refuse(message: string, ...hints: string[]): never {
  throw new RefusalError(message, hints);
}

export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

const WRITE_ERRORS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'input/output error',
};

/** A short reason for a failed write, e.g. "no space left on device", for one-line errors. */
export function writeErrorReason(error: unknown): string {
  return WRITE_ERRORS[errorCode(error) ?? ''] ?? (error as Error).message;
}
