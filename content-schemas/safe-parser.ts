// The part of a zod schema that parseData and the store use: its own module, so that parse.ts and
// fast.ts (which re-exports it) do not import each other.
import type { z } from 'zod';

/** The part of a zod schema that parseData and the store use. */
export interface SafeParser<T> {
  safeParse(
    data: unknown,
    params?: { reportInput?: boolean },
  ): { success: true; data: T } | { success: false; error: { issues: z.core.$ZodIssue[] } };
  /** zod's parse: the data, or a thrown ZodError. */
  parse(data: unknown): T;
}
