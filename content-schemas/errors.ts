// Exit codes (docs/protocol.md, "Exit codes and output") and the base of every error that carries
// one. Defined once, here, so an error class states its own code and cli/run.ts maps by it.
export const EXIT = {
  ok: 0,
  checkFailed: 1,
  refused: 2,
  internal: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI settles with `error: <headline>`, `hint: ...` lines and `exitCode`. */
export abstract class CodelabgenError extends Error {
  abstract readonly exitCode: ExitCode;
  /** Shown as `hint: ...` lines after the error line. */
  readonly hints: string[];
  /** True when the command already reported the problem (--json on stdout): no `error:` line. */
  readonly quiet: boolean;
  constructor(message: string, hints: string[] = [], options?: ErrorOptions & { quiet?: boolean }) {
    super(message, options);
    this.hints = hints;
    this.quiet = options?.quiet ?? false;
  }

  /** What the CLI prints: the `error:` line and the `hint:` lines. */
  report(): { error: string; hints: string[] } {
    return { error: this.message, hints: this.hints };
  }
}
