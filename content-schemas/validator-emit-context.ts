// What the validator emitter's parts share: the zod node types, the Unsupported error (a node
// compiled to "zod decides") and the EmitContext each part emits through (validator-emitter.ts).
import type { z } from 'zod';

export type Def = { type: string; [key: string]: any };
export type Node = z.core.$ZodType;

/** Why a schema node is compiled to "always FAIL" (zod then decides): kept in the output as a comment. */
export class Unsupported extends Error {}

/** The emitter as its parts see it. */
export interface EmitContext {
  /** The name of the function validating `node`, emitting it on first use. */
  fn(node: Node): string;
  /** A module-level constant for `code` (one per distinct code). */
  constant(code: string): string;
  /** A module-level field table of an object (emitted after every function). */
  table(code: string): string;
  /** Whether the function `name` may answer FAIL for data zod accepts. */
  isInexact(name: string): boolean;
  /** Whether a validator calls REFINEMENTS (then the module imports them). */
  usesRefinements: boolean;
}

export function checksOf(def: Def): Def[] {
  return (def.checks ?? []).map((check: Node) => check._zod.def as Def);
}

export function plainChecks(def: Def, what: string): void {
  if ((def.checks ?? []).length > 0) throw new Unsupported(`checks on ${what}`);
}
