// Typed errors the pipeline throws; only cli/main.ts turns them into exit codes and messages.
// RefusalError → exit 2 (nothing changed), ChecksFailedError → exit 1.

export class RefusalError extends Error {
  readonly hints: string[];
  constructor(message: string, hints: string[] = [], options?: ErrorOptions) {
    super(message, options);
    this.name = 'RefusalError';
    this.hints = hints;
  }
}

/** A write that the disk or the operating system refused (ENOSPC, EIO, EACCES, EROFS...). */
export class StoreWriteError extends RefusalError {
  constructor(message: string, hints: string[] = [], options?: ErrorOptions) {
    super(message, hints, options);
    this.name = 'StoreWriteError';
  }
}

/** The command ran and found problems (check, verify): exit 1. */
export class ChecksFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChecksFailedError';
  }
}

export function refuse(message: string, ...hints: string[]): never {
  throw new RefusalError(message, hints);
}

export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
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
