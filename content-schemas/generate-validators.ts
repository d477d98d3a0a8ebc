// Emits content-schemas/validators.generated.ts: one plain function per data-file schema, compiled
// from the zod definitions, so the CLI's hot path validates without importing zod. A validator may
// only say "valid, here is zod's output" or FAIL; on FAIL the caller asks zod itself (content-schemas/fast.ts).
import { z } from 'zod';
import * as schemas from './index.ts';
import { refinementName } from './refine.ts';

/** The schemas the pipeline validates with (exports of content-schemas/index.ts). */
export const FAST_SCHEMAS = ['ConfigSchema', 'SourceSchema', 'TopicSchema', 'CurriculumSchema', 'LessonSpecSchema', 'RunResultSchema', 'GlossaryEntrySchema', 'ReviewSchema', 'WorkerStatusSchema', 'StateSchema', 'EventSchema', 'TaskSchema', 'ReportSchema', 'RoleSchema', 'LessonIdSchema'] as const;
export type FastSchemaName = (typeof FAST_SCHEMAS)[number];

type Def = { type: string; [key: string]: any };
type Node = z.core.$ZodType;

/** Why a schema node is compiled to "always FAIL" (zod then decides): kept in the output as a comment. */
class Unsupported extends Error {}

class Emitter {
  private readonly names = new Map<Node, string>();
  private readonly bodies: string[] = [];
  /** Field tables of objects: they name validator functions, so they come after every function. */
  private readonly tables: string[] = [];
  /** Function name by body: zod's `.describe()` copies a schema, the copies validate alike. */
  private readonly byBody = new Map<string, string>();
  private readonly constants: string[] = [];
  /** Whether a validator calls REFINEMENTS (then the module imports them). */
  usesRefinements = false;

  /**
   * Functions that may answer FAIL for data zod accepts: one compiled to "zod decides", or one that
   * calls such a function. FAIL stays safe everywhere but in a plain union, where it would move on
   * to the next option.
   */
  private readonly inexact = new Set<string>();
  /** The functions each function being emitted calls (innermost last). */
  private readonly calls: Array<Set<string>> = [];

  /** The name of the function validating `node`, emitting it on first use. */
  fn(node: Node): string {
    const name = this.emit(node);
    this.calls.at(-1)?.add(name);
    return name;
  }

  private emit(node: Node): string {
    const known = this.names.get(node);
    if (known !== undefined) return known;
    const name = `v${this.names.size}`;
    this.names.set(node, name);
    let body: string;
    const calls = new Set<string>();
    this.calls.push(calls);
    try {
      body = this.body(node);
      if ([...calls].some((called) => this.inexact.has(called))) this.inexact.add(name);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      body = `  return FAIL; // ${error.message}: zod decides`;
      this.inexact.add(name);
    } finally {
      this.calls.pop();
    }
    const same = this.byBody.get(body);
    if (same !== undefined) this.bodies.push(`const ${name} = ${same};`);
    else {
      this.byBody.set(body, name);
      this.bodies.push(`function ${name}(v: any): any {\n${body}\n}`);
    }
    return name;
  }

  private readonly constantNames = new Map<string, string>();

  /** A module-level constant for `code` (one per distinct code). */
  constant(code: string): string {
    const known = this.constantNames.get(code);
    if (known !== undefined) return known;
    const name = `c${this.constants.length}`;
    this.constants.push(`const ${name} = ${code};`);
    this.constantNames.set(code, name);
    return name;
  }

  table(code: string): string {
    const name = `t${this.tables.length}`;
    this.tables.push(`const ${name}: Field[] = ${code};`);
    return name;
  }

  source(): string {
    return [...this.constants, '', ...this.bodies, '', ...this.tables].join('\n');
  }

  private body(node: Node): string {
    const def = node._zod.def as Def;
    switch (def.type) {
      case 'string':
        return this.string(def);
      case 'number':
        return this.number(def);
      case 'boolean':
        return `  return typeof v === 'boolean' ? v : FAIL;`;
      case 'unknown':
      case 'any':
        return '  return v;';
      case 'literal':
        return `  return ${this.oneOf(def.values)}.has(v) ? v : FAIL;`;
      case 'enum':
        return `  return ${this.oneOf(Object.values(def.entries))}.has(v) ? v : FAIL;`;
      case 'nullable':
        this.plainChecks(def, 'nullable');
        return `  return v === null ? null : ${this.fn(def.innerType)}(v);`;
      case 'optional':
        this.plainChecks(def, 'optional');
        return `  return v === undefined ? undefined : ${this.fn(def.innerType)}(v);`;
      case 'default':
        this.plainChecks(def, 'default');
        return `  return v === undefined ? ${literal(def.defaultValue)} : ${this.fn(def.innerType)}(v);`;
      case 'array':
        return this.array(def);
      case 'object':
        return this.object(def);
      case 'record':
        return this.record(def);
      case 'union':
        return this.union(def);
      default:
        throw new Unsupported(`type ${def.type}`);
    }
  }

  private plainChecks(def: Def, what: string): void {
    if ((def.checks ?? []).length > 0) throw new Unsupported(`checks on ${what}`);
  }

  private oneOf(values: readonly unknown[]): string {
    for (const value of values) if (!['string', 'number', 'boolean'].includes(typeof value) && value !== null) throw new Unsupported('non-primitive literal');
    return this.constant(`new Set<unknown>(${JSON.stringify(values)})`);
  }

  private string(def: Def): string {
    if (def.coerce) throw new Unsupported('coerce');
    if (def.format === 'url') return this.url(def);
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
      else if (check.check === 'string_format' && check.format === 'regex' && check.pattern instanceof RegExp) patterns.push(check.pattern);
      else if (check.check === 'custom' && refinementName(instance) !== undefined) refinements.push(`REFINEMENTS.${refinementName(instance)}(s) !== null`);
      else throw new Unsupported(`string check ${check.check}${check.format ? ` ${check.format}` : ''}`);
    }
    const res = patterns.length === 0 ? 'null' : this.constant(`[${patterns.map((pattern) => pattern.toString()).join(', ')}]`);
    if (refinements.length === 0) return `  return str(v, ${min}, ${max}, ${res});`;
    this.usesRefinements = true;
    return [`  const s: any = str(v, ${min}, ${max}, ${res});`, `  return s === FAIL || ${refinements.join(' || ')} ? FAIL : s;`].join('\n');
  }

  /** zod's URL format, alone (with other checks zod's order of trimming and checking would matter). */
  private url(def: Def): string {
    if ((def.checks ?? []).length > 0) throw new Unsupported('checks on a URL');
    const parse = 'normalize' in def || 'hostname' in def || 'protocol' in def;
    const httpOnly = !def.normalize && def.protocol?.source === z.core.regexes.httpProtocol.source;
    const pattern = (re: unknown) => (re instanceof RegExp ? this.constant(re.toString()) : 'null');
    return `  return url(v, ${parse}, ${httpOnly}, ${pattern(def.protocol)}, ${pattern(def.hostname)}, ${def.normalize === true});`;
  }

  private number(def: Def): string {
    if (def.coerce) throw new Unsupported('coerce');
    let integer = false;
    const bounds: string[] = [];
    for (const check of [...(def.check === 'number_format' ? [def] : []), ...checksOf(def)]) {
      if (check.check === 'number_format' && check.format === 'safeint') integer = true;
      else if (check.check === 'greater_than' && typeof check.value === 'number') bounds.push(`v ${check.inclusive ? '>=' : '>'} ${check.value}`);
      else if (check.check === 'less_than' && typeof check.value === 'number') bounds.push(`v ${check.inclusive ? '<=' : '<'} ${check.value}`);
      else throw new Unsupported(`number check ${check.check}${check.format ? ` ${check.format}` : ''}`);
    }
    const test = [integer ? 'Number.isSafeInteger(v)' : `typeof v === 'number' && Number.isFinite(v)`, ...bounds].join(' && ');
    return `  return ${test} ? v : FAIL;`;
  }

  private array(def: Def): string {
    let min = -1;
    let max = -1;
    for (const check of checksOf(def)) {
      if (check.check === 'min_length') min = Math.max(min, check.minimum);
      else if (check.check === 'max_length') max = max === -1 ? check.maximum : Math.min(max, check.maximum);
      else throw new Unsupported(`array check ${check.check}`);
    }
    return `  return arr(v, ${min}, ${max}, ${this.fn(def.element)});`;
  }

  private object(def: Def): string {
    this.plainChecks(def, 'object');
    // Only strict objects (unknown keys refused): a stripping or passthrough object is left to zod.
    if (def.catchall?._zod.def.type !== 'never') throw new Unsupported('non-strict object');
    const keys = Object.keys(def.shape);
    const known = this.constant(`new Set<string>(${JSON.stringify(keys)})`);
    const fields = keys.map((key) => {
      const field = def.shape[key] as Node;
      const { optin, optout } = field._zod;
      let mode: number;
      if (optin === undefined && optout === undefined) mode = REQUIRED;
      else if (optin === 'optional' && optout === 'optional') mode = OPTIONAL;
      else if ((optin === 'defaulted' || optin === 'optional') && optout === undefined && (field._zod.def as Def).type === 'default') mode = DEFAULTED;
      else throw new Unsupported(`field ${key} with optin ${optin} / optout ${optout}`);
      return `[${JSON.stringify(key)}, ${this.fn(field)}, ${mode}]`;
    });
    return `  return obj(v, ${known}, ${this.table(`[${fields.join(', ')}]`)});`;
  }

  private record(def: Def): string {
    this.plainChecks(def, 'record');
    if (def.mode !== undefined && def.mode !== 'strict') throw new Unsupported(`record mode ${def.mode}`);
    if ((def.keyType as Node)._zod.values !== undefined) throw new Unsupported('record with enumerated keys');
    const key = this.fn(def.keyType);
    const value = this.fn(def.valueType);
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

  private union(def: Def): string {
    this.plainChecks(def, 'union');
    const options = def.options as Node[];
    if (typeof def.discriminator !== 'string') return this.plainUnion(def, options);
    const at = JSON.stringify(def.discriminator);
    const cases: string[] = [];
    for (const option of options) {
      const tag = (option._zod.def as Def).shape?.[def.discriminator]?._zod.def as Def | undefined;
      if (tag?.type !== 'literal') throw new Unsupported('discriminator that is not a literal');
      for (const value of tag.values) cases.push(`[${JSON.stringify(value)}, ${this.fn(option)}]`);
    }
    const table = this.constant(`new Map<unknown, (v: any) => any>([${cases.join(', ')}])`);
    return ['  if (!isObject(v)) return FAIL;', `  const option = ${table}.get(v[${at}]);`, '  return option === undefined ? FAIL : option(v);'].join('\n');
  }

  /**
   * zod's union: the output of the first option that accepts the value. An option before the last
   * must be exact (never FAIL for what zod accepts), or the validator could answer with a later
   * option where zod answers with that one.
   */
  private plainUnion(def: Def, options: Node[]): string {
    if (def.inclusive === false) throw new Unsupported('exclusive union');
    const fns = options.map((option) => this.fn(option));
    if (fns.slice(0, -1).some((name) => this.inexact.has(name))) throw new Unsupported('union with an option zod decides before the last');
    return [...fns.map((name) => `  { const r = ${name}(v); if (r !== FAIL) return r; }`), '  return FAIL;'].join('\n');
  }
}

// How an object treats an absent field (the modes of obj() in the generated file).
const REQUIRED = 0;
const OPTIONAL = 1;
const DEFAULTED = 2;

function checksOf(def: Def): Def[] {
  return (def.checks ?? []).map((check: Node) => check._zod.def as Def);
}

function literal(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined || JSON.stringify(JSON.parse(json)) !== json) throw new Unsupported('default that is not plain JSON');
  return typeof value === 'object' && value !== null ? `JSON.parse(${JSON.stringify(json)})` : json;
}

const HEADER = `// GENERATED by content-schemas/generate-validators.ts from the zod schemas: do not edit.
// \`node scripts/build.mjs\` regenerates it; content-schemas/validators.test.ts fails when it is stale.
// Each validator returns zod's output for valid data, or FAIL (then zod itself decides and words the refusal).
`;

const HELPERS = `
export const FAIL: unique symbol = Symbol('FAIL');

function isObject(v: unknown): v is Record<string, unknown> {
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
function str(v: unknown, min: number, max: number, patterns: RegExp[] | null): unknown {
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

function arr(v: unknown, min: number, max: number, element: (v: any) => any): unknown {
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
 * zod's URL format: the trimmed string must parse as a URL (with \`parse\`, also match \`protocol\` and
 * \`hostname\`, and with \`httpOnly\` start with http(s)://); the output is what zod outputs.
 */
function url(v: unknown, parse: boolean, httpOnly: boolean, protocol: RegExp | null, hostname: RegExp | null, normalize: boolean): unknown {
  if (typeof v !== 'string') return FAIL;
  const trimmed = v.trim();
  const stripped = trimmed.replace(/[\\t\\n\\r]/g, '');
  if (!parse) return URL.canParse(trimmed) ? stripped : FAIL;
  if (httpOnly && !/^https?:\\/\\//i.test(trimmed)) return FAIL;
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
type Field = [string, (v: any) => any, number];

/** A strict object: no unknown key; the output has zod's key order (the schema's). */
function obj(v: unknown, known: Set<string>, fields: Field[]): unknown {
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
`;

/** The whole generated module: a validator for each of FAST_SCHEMAS (or of `only`, in tests). */
export function renderValidators(only?: Record<string, Node>): string {
  const emitter = new Emitter();
  const named = only ?? Object.fromEntries(FAST_SCHEMAS.map((name) => [name, schemas[name] as Node]));
  const table = Object.entries(named).map(([name, schema]) => `  ${name}: ${emitter.fn(schema)},`);
  const imports = emitter.usesRefinements ? "import { REFINEMENTS } from './refinements.ts';\n" : '';
  return `${HEADER}${imports}${HELPERS}\n${emitter.source()}\n\nexport const VALIDATORS = {\n${table.join('\n')}\n};\n`;
}
