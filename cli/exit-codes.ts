// Exit codes are protocol (docs/protocol.md, "Exit codes and output"): agents branch on them. Defined once, here.
export const EXIT = {
  ok: 0,
  checkFailed: 1,
  refused: 2,
  internal: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
