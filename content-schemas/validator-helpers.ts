// The runtime helpers every validator of content-schemas/validators.generated.ts calls: FAIL and the
// checks of strings, arrays, URLs and strict objects, each giving zod's output or FAIL.
export const FAIL: unique symbol = Symbol('FAIL');

export function isObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Length in Unicode code points, as zod measures strings. */
function codePoints(s: string): number {
  let count = 0;
  for (const _ of s) count++;
  return count;
}

/** A string within [min, max] code points (-1: no bound) matching every pattern. */
export function str(v: unknown, min: number, max: number, patterns: RegExp[] | null): unknown {
  if (typeof v !== 'string') return FAIL;
  if (min !== -1 && (v.length < min || (v.length < 2 * min && codePoints(v) < min))) return FAIL;
  if (max !== -1 && v.length > max && codePoints(v) > max) return FAIL;
  if (patterns !== null) {
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      if (!pattern.test(v)) return FAIL;
    }
  }
  return v;
}

export function arr(v: unknown, min: number, max: number, element: (v: any) => any): unknown {
  if (!Array.isArray(v) || (min !== -1 && v.length < min) || (max !== -1 && v.length > max)) return FAIL;
  const out: unknown[] = [];
  for (let i = 0; i < v.length; i++) {
    const r = element(v[i]);
    if (r === FAIL) return FAIL;
    out.push(r);
  }
  return out;
}

/**
 * zod's URL format: the trimmed string must parse as a URL (with `parse`, also match `protocol` and
 * `hostname`, and with `httpOnly` start with http(s)://); the output is what zod outputs.
 */
export function url(
  v: unknown,
  parse: boolean,
  httpOnly: boolean,
  protocol: RegExp | null,
  hostname: RegExp | null,
  normalize: boolean,
): unknown {
  if (typeof v !== 'string') return FAIL;
  const trimmed = v.trim();
  const stripped = trimmed.replace(/[\t\n\r]/g, '');
  if (!parse) return URL.canParse(trimmed) ? stripped : FAIL;
  if (httpOnly && !/^https?:\/\//i.test(trimmed)) return FAIL;
  const parsed = URL.parse(trimmed);
  if (parsed === null) return FAIL;
  if (hostname !== null) {
    hostname.lastIndex = 0;
    if (!hostname.test(parsed.hostname)) return FAIL;
  }
  if (protocol !== null) {
    protocol.lastIndex = 0;
    if (!protocol.test(parsed.protocol.endsWith(':') ? parsed.protocol.slice(0, -1) : parsed.protocol)) return FAIL;
  }
  return normalize ? parsed.href : stripped;
}

/** A field: its key, its validator, and 0 required / 1 optional (absent stays absent) / 2 defaulted. */
export type Field = [string, (v: any) => any, number];

/** A strict object: no unknown key; the output has zod's key order (the schema's). */
export function obj(v: unknown, known: Set<string>, fields: Field[]): unknown {
  if (!isObject(v)) return FAIL;
  for (const k of Object.keys(v)) if (!known.has(k)) return FAIL;
  const out: Record<string, unknown> = {};
  for (const [key, check, mode] of fields) {
    if (!(key in v)) {
      if (mode === 0) return FAIL;
      if (mode === 1) continue;
    }
    const r = check(v[key]);
    if (r === FAIL) return FAIL;
    out[key] = r;
  }
  return out;
}
