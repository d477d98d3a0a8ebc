// The validator emitter: compiles a zod schema node to a plain function (naming, sharing and
// ordering the emitted functions, constants and field tables). Used by generate-validators.ts.
import { createHash } from 'node:crypto';
import { emitArray, emitObject, emitRecord, emitUnion } from './validator-containers.ts';
import { plainChecks, Unsupported, type Def, type EmitContext, type Node } from './validator-emit-context.ts';
import { emitNumber, emitOneOf, emitString } from './validator-scalars.ts';

export class Emitter implements EmitContext {
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
    let body: string;
    let inexact = false;
    const calls = new Set<string>();
    this.calls.push(calls);
    try {
      body = this.body(node);
      inexact = [...calls].some((called) => this.inexact.has(called));
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      body = `  return FAIL; // ${error.message}: zod decides`;
      inexact = true;
    } finally {
      this.calls.pop();
    }
    // Named by what it does, not by when it was met: a schema change renames only the functions
    // it changes (and those that call them), so the generated file's diff stays as small as the change.
    const same = this.byBody.get(body);
    const name = same ?? this.unique('v', body);
    if (same === undefined) {
      this.byBody.set(body, name);
      this.bodies.push(`function ${name}(v: any): any {\n${body}\n}`);
    }
    if (inexact) this.inexact.add(name);
    this.names.set(node, name);
    return name;
  }

  private readonly taken = new Map<string, string>(); // name → the code it names

  /** `prefix` and a short hash of `code`: the same code always gets the same name. */
  private unique(prefix: string, code: string): string {
    const hash = createHash('sha256').update(code).digest('hex');
    for (let length = 8; ; length += 4) {
      const name = `${prefix}_${hash.slice(0, length)}`;
      const holder = this.taken.get(name);
      if (holder === undefined || holder === code) {
        this.taken.set(name, code);
        return name;
      }
    }
  }

  private readonly constantNames = new Map<string, string>();

  /** A module-level constant for `code` (one per distinct code). */
  constant(code: string): string {
    const known = this.constantNames.get(code);
    if (known !== undefined) return known;
    const name = this.unique('c', code);
    this.constants.push(`const ${name} = ${code};`);
    this.constantNames.set(code, name);
    return name;
  }

  private readonly tableNames = new Map<string, string>();

  table(code: string): string {
    const known = this.tableNames.get(code);
    if (known !== undefined) return known;
    const name = this.unique('t', code);
    this.tables.push(`const ${name}: Field[] = ${code};`);
    this.tableNames.set(code, name);
    return name;
  }

  source(): string {
    return [...this.constants, '', ...this.bodies, '', ...this.tables].join('\n');
  }

  isInexact(name: string): boolean {
    return this.inexact.has(name);
  }

  private body(node: Node): string {
    const def = node._zod.def as Def;
    switch (def.type) {
      case 'string':
        return emitString(this, def);
      case 'number':
        return emitNumber(this, def);
      case 'boolean':
        return `  return typeof v === 'boolean' ? v : FAIL;`;
      case 'unknown':
      case 'any':
        return '  return v;';
      case 'literal':
        return `  return ${emitOneOf(this, def.values)}.has(v) ? v : FAIL;`;
      case 'enum':
        return `  return ${emitOneOf(this, Object.values(def.entries))}.has(v) ? v : FAIL;`;
      case 'nullable':
        plainChecks(def, 'nullable');
        return `  return v === null ? null : ${this.fn(def.innerType)}(v);`;
      case 'optional':
        plainChecks(def, 'optional');
        return `  return v === undefined ? undefined : ${this.fn(def.innerType)}(v);`;
      case 'default':
        plainChecks(def, 'default');
        return `  return v === undefined ? ${literal(def.defaultValue)} : ${this.fn(def.innerType)}(v);`;
      case 'array':
        return emitArray(this, def);
      case 'object':
        return emitObject(this, def);
      case 'record':
        return emitRecord(this, def);
      case 'union':
        return emitUnion(this, def);
      default:
        throw new Unsupported(`type ${def.type}`);
    }
  }
}

function literal(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined || JSON.stringify(JSON.parse(json)) !== json)
    throw new Unsupported('default that is not plain JSON');
  return typeof value === 'object' && value !== null ? `JSON.parse(${JSON.stringify(json)})` : json;
}
