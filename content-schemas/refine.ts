// Named refinements as zod checks: the check refuses with the refinement's own message, and the
// validator generator (generate-validators.ts) finds the name again and compiles a call to the same
// plain function (refinements.ts), so such a field needs no zod on the hot path.
import { z } from 'zod';
import { REFINEMENTS, type RefinementName } from './refinements.ts';

const names = new WeakMap<object, RefinementName>();

/** A zod check running REFINEMENTS[name] on a string. */
export function refinement(name: RefinementName): z.core.$ZodCheck<string> {
  const check = z.superRefine((value: string, ctx) => {
    const problem = REFINEMENTS[name](value);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });
  names.set(check, name);
  return check;
}

/** The refinement a check was made from by refinement(), if any. */
export function refinementName(check: object): RefinementName | undefined {
  return names.get(check);
}
