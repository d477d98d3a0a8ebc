// Emits the validators of zod's container nodes: arrays, strict objects, records and unions (plain
// and discriminated). Used by validator-emitter.ts.
import { checksOf, plainChecks, Unsupported, type Def, type EmitContext, type Node } from './validator-emit-context.ts';

// How an object treats an absent field (the modes of obj() in the generated file).
const REQUIRED = 0;
const OPTIONAL = 1;
const DEFAULTED = 2;

export function emitArray(ctx: EmitContext, def: Def): string {
  let min = -1;
  let max = -1;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') min = Math.max(min, check.minimum);
    else if (check.check === 'max_length') max = max === -1 ? check.maximum : Math.min(max, check.maximum);
    else throw new Unsupported(`array check ${check.check}`);
  }
  return `  return arr(v, ${min}, ${max}, ${ctx.fn(def.element)});`;
}

export function emitObject(ctx: EmitContext, def: Def): string {
  plainChecks(def, 'object');
  // Only strict objects (unknown keys refused): a stripping or passthrough object is left to zod.
  if (def.catchall?._zod.def.type !== 'never') throw new Unsupported('non-strict object');
  const keys = Object.keys(def.shape);
  const known = ctx.constant(`new Set<string>(${JSON.stringify(keys)})`);
  const fields = keys.map((key) => {
    const field = def.shape[key] as Node;
    const { optin, optout } = field._zod;
    let mode: number;
    if (optin === undefined && optout === undefined) mode = REQUIRED;
    else if (optin === 'optional' && optout === 'optional') mode = OPTIONAL;
    else if (
      (optin === 'defaulted' || optin === 'optional') &&
      optout === undefined &&
      (field._zod.def as Def).type === 'default'
    )
      mode = DEFAULTED;
    else throw new Unsupported(`field ${key} with optin ${optin} / optout ${optout}`);
    return `[${JSON.stringify(key)}, ${ctx.fn(field)}, ${mode}]`;
  });
  return `  return obj(v, ${known}, ${ctx.table(`[${fields.join(', ')}]`)});`;
}

export function emitRecord(ctx: EmitContext, def: Def): string {
  plainChecks(def, 'record');
  if (def.mode !== undefined && def.mode !== 'strict') throw new Unsupported(`record mode ${def.mode}`);
  if ((def.keyType as Node)._zod.values !== undefined) throw new Unsupported('record with enumerated keys');
  const key = ctx.fn(def.keyType);
  const value = ctx.fn(def.valueType);
  return [
    '  if (!isObject(v)) return FAIL;',
    '  const out: any = {};',
    '  for (const k of Object.keys(v)) {',
    `    if (k === '__proto__' || ${key}(k) !== k) return FAIL;`,
    `    const r = ${value}(v[k]);`,
    '    if (r === FAIL) return FAIL;',
    '    out[k] = r;',
    '  }',
    '  return out;',
  ].join('\n');
}

export function emitUnion(ctx: EmitContext, def: Def): string {
  plainChecks(def, 'union');
  const options = def.options as Node[];
  if (typeof def.discriminator !== 'string') return emitPlainUnion(ctx, def, options);
  const at = JSON.stringify(def.discriminator);
  const cases: string[] = [];
  for (const option of options) {
    const tag = (option._zod.def as Def).shape?.[def.discriminator]?._zod.def as Def | undefined;
    if (tag?.type !== 'literal') throw new Unsupported('discriminator that is not a literal');
    for (const value of tag.values) cases.push(`[${JSON.stringify(value)}, ${ctx.fn(option)}]`);
  }
  const table = ctx.constant(`new Map<unknown, (v: any) => any>([${cases.join(', ')}])`);
  return [
    '  if (!isObject(v)) return FAIL;',
    `  const option = ${table}.get(v[${at}]);`,
    '  return option === undefined ? FAIL : option(v);',
  ].join('\n');
}

/**
 * zod's union: the output of the first option that accepts the value. An option before the last
 * must be exact (never FAIL for what zod accepts), or the validator could answer with a later
 * option where zod answers with that one.
 */
export function emitPlainUnion(ctx: EmitContext, def: Def, options: Node[]): string {
  if (def.inclusive === false) throw new Unsupported('exclusive union');
  const fns = options.map((option) => ctx.fn(option));
  if (fns.slice(0, -1).some((name) => ctx.isInexact(name)))
    throw new Unsupported('union with an option zod decides before the last');
  return [...fns.map((name) => `  { const r = ${name}(v); if (r !== FAIL) return r; }`), '  return FAIL;'].join('\n');
}
