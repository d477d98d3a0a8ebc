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

/** What str() checks a string against: a regular expression, or a check written out as one (ISO_DATE_TIME). */
export interface Pattern {
  lastIndex: number;
  test(text: string): boolean;
}

/** A string within [min, max] code points (-1: no bound) matching every pattern. */
export function str(v: unknown, min: number, max: number, patterns: readonly Pattern[] | null): unknown {
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

/** zod's date-time expression (ISO_DATE_TIME_SOURCE in validator-scalars.ts) written out: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, a real day. */
export function isIsoDateTime(text: string): boolean {
  const digit = (at: number) => {
    const value = text.charCodeAt(at) - 48;
    return value >= 0 && value <= 9 ? value : -1;
  };
  const two = (at: number) => (digit(at) < 0 || digit(at + 1) < 0 ? -1 : digit(at) * 10 + digit(at + 1));
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return false;
  const century = two(0);
  const year = two(2);
  const month = two(5);
  const day = two(8);
  if (century < 0 || year < 0 || month < 1 || month > 12 || day < 1) return false;
  // 29 February in a leap year as the expression has it: a year ending 04, 08 ... 96, or 00 of a century divisible by 4
  const leap = year !== 0 ? year % 4 === 0 : century % 4 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  const hour = two(11);
  const minute = two(14);
  const second = two(17);
  if (day > days || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let at = 19;
  if (text[at] === '.') {
    at += 1;
    const start = at;
    while (digit(at) >= 0) at += 1;
    if (at === start) return false;
  }
  if (text[at] === 'Z') return at + 1 === text.length;
  if (text[at] !== '+' && text[at] !== '-') return false;
  const offsetHour = two(at + 1);
  const offsetMinute = two(at + 4);
  return (
    at + 6 === text.length &&
    offsetHour >= 0 &&
    offsetHour <= 23 &&
    text[at + 3] === ':' &&
    offsetMinute >= 0 &&
    offsetMinute <= 59
  );
}

/** isIsoDateTime as a pattern str() takes. */
export const ISO_DATE_TIME: Pattern = { lastIndex: 0, test: isIsoDateTime };
