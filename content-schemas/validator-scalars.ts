// Emits the validators of zod's scalar nodes: strings (with patterns, lengths and named
// refinements), URLs, numbers, and the value sets of literals and enums. Used by validator-emitter.ts.
import { z } from 'zod';
import { refinementName } from './refine.ts';
import { checksOf, Unsupported, type Def, type EmitContext } from './validator-emit-context.ts';

/**
 * The source of zod's ISO date-time pattern (z.iso.datetime({ offset: true }), TimestampSchema), which the event's
 * `ts` is checked against. emitString() emits ISO_DATE_TIME (validator-helpers.ts) in its place: V8 compiles a
 * regular expression at its first use in every process, about 0.25 ms for this one (0.1 ms more at its
 * second), and every state change checks one `ts` (docs/performance.md, "State commands' start-up").
 */
export const ISO_DATE_TIME_SOURCE =
  '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-' +
  '(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:' +
  '[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$';

export function emitOneOf(ctx: EmitContext, values: readonly unknown[]): string {
  for (const value of values)
    if (!['string', 'number', 'boolean'].includes(typeof value) && value !== null)
      throw new Unsupported('non-primitive literal');
  return ctx.constant(`new Set<unknown>(${JSON.stringify(values)})`);
}

export function emitString(ctx: EmitContext, def: Def): string {
  if (def.coerce) throw new Unsupported('coerce');
  if (def.format === 'url') return emitUrl(ctx, def);
  const patterns: RegExp[] = [];
  const refinements: string[] = [];
  let min = -1;
  let max = -1;
  if (def.format !== undefined) {
    if (!(def.pattern instanceof RegExp)) throw new Unsupported(`string format ${def.format}`);
    patterns.push(def.pattern);
  }
  for (const instance of def.checks ?? []) {
    const check = instance._zod.def as Def;
    if (check.check === 'min_length') min = Math.max(min, check.minimum);
    else if (check.check === 'max_length') max = max === -1 ? check.maximum : Math.min(max, check.maximum);
    else if (check.check === 'string_format' && check.format === 'regex' && check.pattern instanceof RegExp)
      patterns.push(check.pattern);
    else if (check.check === 'custom' && refinementName(instance) !== undefined)
      refinements.push(`REFINEMENTS.${refinementName(instance)}(s) !== null`);
    else throw new Unsupported(`string check ${check.check}${check.format ? ` ${check.format}` : ''}`);
  }
  // zod's date-time expression as a check written out (validator-helpers.ts, ISO_DATE_TIME)
  const written = (pattern: RegExp) =>
    pattern.source === ISO_DATE_TIME_SOURCE && pattern.flags === '' ? 'ISO_DATE_TIME' : pattern.toString();
  const res = patterns.length === 0 ? 'null' : ctx.constant(`[${patterns.map(written).join(', ')}]`);
  if (refinements.length === 0) return `  return str(v, ${min}, ${max}, ${res});`;
  ctx.usesRefinements = true;
  return [
    `  const s: any = str(v, ${min}, ${max}, ${res});`,
    `  return s === FAIL || ${refinements.join(' || ')} ? FAIL : s;`,
  ].join('\n');
}

/** zod's URL format, alone (with other checks zod's order of trimming and checking would matter). */
export function emitUrl(ctx: EmitContext, def: Def): string {
  if ((def.checks ?? []).length > 0) throw new Unsupported('checks on a URL');
  const parse = 'normalize' in def || 'hostname' in def || 'protocol' in def;
  const httpOnly = !def.normalize && def.protocol?.source === z.core.regexes.httpProtocol.source;
  const pattern = (re: unknown) => (re instanceof RegExp ? ctx.constant(re.toString()) : 'null');
  return `  return url(v, ${parse}, ${httpOnly}, ${pattern(def.protocol)}, ${pattern(def.hostname)}, ${def.normalize === true});`;
}

export function emitNumber(_ctx: EmitContext, def: Def): string {
  if (def.coerce) throw new Unsupported('coerce');
  let integer = false;
  const bounds: string[] = [];
  for (const check of [...(def.check === 'number_format' ? [def] : []), ...checksOf(def)]) {
    if (check.check === 'number_format' && check.format === 'safeint') integer = true;
    else if (check.check === 'greater_than' && typeof check.value === 'number')
      bounds.push(`v ${check.inclusive ? '>=' : '>'} ${check.value}`);
    else if (check.check === 'less_than' && typeof check.value === 'number')
      bounds.push(`v ${check.inclusive ? '<=' : '<'} ${check.value}`);
    else throw new Unsupported(`number check ${check.check}${check.format ? ` ${check.format}` : ''}`);
  }
  const test = [integer ? 'Number.isSafeInteger(v)' : `typeof v === 'number' && Number.isFinite(v)`, ...bounds].join(
    ' && ',
  );
  return `  return ${test} ? v : FAIL;`;
}
