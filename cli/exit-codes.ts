// Exit codes are protocol (PROTOCOL.md section 7): agents branch on them. Defined once, here.
export const EXIT = {
  ok: 0,
  checkFailed: 1,
  refused: 2,
  internal: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
