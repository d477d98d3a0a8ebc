// Exit codes are protocol (docs/protocol.md, "Exit codes and output"): agents branch on them.
// Defined once in content-schemas/errors.ts, beside the error classes that carry them.
export { EXIT, type ExitCode } from '../content-schemas/errors.ts';
