// A faster copy of mermaid's configuration for the diagram parser's child process only
// (pipeline/site/diagram-parse-child.ts): the renderer (pipeline/site/diagrams.ts) loads mermaid as
// it is. mermaid's `getConfig()` returns `assignWithDepth({}, currentConfig)`, a copy of the whole
// configuration (about 1000 properties, each added with `Object.defineProperty` in a per-key
// closure), and its parse copies it about 14 times per diagram (`reset`, `setDiagramConfigScope`,
// `addDirective`, `getConfig` per flowchart vertex): about 80% of its parse time
// (docs/performance.md, "Parsing many new diagrams").
//
// A module load hook rewrites, in the one chunk of mermaid that defines `assignWithDepth`, each call
// `assignWithDepth_default({}, x)` (a fresh empty object filled from `x`) into a call of
// copyWithDepth below, which builds the same object: the same own properties in the same order,
// with the same values and attributes, the same nested copies and de-duplicated arrays, the same
// `__proto__` keys (own properties) and the same skipped keys. It is applied only when that chunk's
// `assignWithDepth` is byte for byte the one this copy was written against (its hash below); any
// other mermaid is loaded as it is, and the child says so (`patched: false`).
// pipeline/site/mermaid-config-copy.test.ts compares copyWithDepth with mermaid's own function on
// random objects; pipeline/site/diagram-parse-dom.test.ts compares every outcome and message of the
// patched child with mermaid as it is.
import { createHash } from 'node:crypto';
import { registerHooks } from 'node:module';

type AssignWithDepth = (dst: unknown, src: unknown, config?: { depth?: number }) => unknown;

/**
 * `assignWithDepth({}, src, { depth })` of mermaid (its src/assignWithDepth.ts: a fresh empty object
 * filled from `src`), made with object spreads, which V8 copies whole, instead of one
 * `Object.defineProperty` per key in a closure per key. mermaid's function reads
 * `Object.entries(src)`, skips `null` values, copies object values `depth` levels down (arrays with
 * its own function: their elements without repeats; objects below that level with
 * `Object.assign`), and defines every other key as an own, writable, enumerable, configurable data
 * property, except `__proto__` with a value that is not an object (an empty object inherits an
 * object there). A spread reads the same keys in the same order, once each, and defines them the
 * same way. Where that is not all (a `null` value, a `__proto__` key, a symbol key, an array `src`),
 * mermaid's own function makes the copy.
 *
 * The same object as mermaid's in every case where the built-ins are as Node makes them (nothing in
 * the parser's child changes them): `Object.prototype` has, but for `__proto__`, only writable data
 * properties that are not objects, so an empty object inherits nothing that makes mermaid skip a key
 * or that a spread (or `Object.assign`) would define otherwise.
 *
 * Injected into mermaid's chunk as source text (Function.prototype.toString): it uses nothing outside
 * itself but its arguments and the language's built-ins.
 */
export function copyWithDepth(src: unknown, depth: number, assignWithDepth: AssignWithDepth): unknown {
  if (typeof src !== 'object' || src === null || Array.isArray(src) || Object.getOwnPropertySymbols(src).length > 0)
    return assignWithDepth({}, src, { depth });
  if (depth <= 0) return Object.hasOwn(src, '__proto__') ? Object.assign({}, src) : { ...src };
  const read: Record<string, unknown> = { ...src }; // what Object.entries(src) reads, in its order
  const values = Object.values(read);
  if (values.includes(null) || Object.hasOwn(read, '__proto__')) return assignWithDepth({}, read, { depth });
  let keys: string[] | undefined;
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (typeof value === 'object') {
      keys ??= Object.keys(read);
      read[keys[index]!] = Array.isArray(value)
        ? assignWithDepth([], value, { depth: depth - 1 })
        : copyWithDepth(value, depth - 1, assignWithDepth);
    }
  }
  return read;
}

/** mermaid's `assignWithDepth` as its chunk defines it, from its declaration to its export alias. */
const DEFINITION = /var assignWithDepth = [\s\S]*?\nvar assignWithDepth_default = assignWithDepth;\n/;
/** sha256 of DEFINITION's text in mermaid 12.3.0 (dist/chunks/mermaid.core/chunk-BG4553SI.mjs). */
const KNOWN_DEFINITION = '68edc8f7bf7bcc5419a0ec0e0fc3b961d29ce533e00ff030249e7aa5162bc044';
const FRESH_COPY = /\bassignWithDepth_default\(\{\}, ([A-Za-z_$][\w$]*)\)/g;

/**
 * The chunk's source with every `assignWithDepth_default({}, x)` made a copyWithDepth call, or null
 * when the chunk does not define the known `assignWithDepth` (another chunk, another mermaid).
 */
export function patchMermaidChunk(source: string): string | null {
  const definition = DEFINITION.exec(source);
  if (definition === null) return null;
  if (createHash('sha256').update(definition[0]).digest('hex') !== KNOWN_DEFINITION) return null;
  const end = definition.index + definition[0].length;
  const rewritten = source.slice(end).replace(FRESH_COPY, 'codelabgenCopyWithDepth($1, 2, assignWithDepth_default)');
  return `${source.slice(0, end)}var codelabgenCopyWithDepth = ${copyWithDepth.toString()};\n${rewritten}`;
}

/**
 * Registers the load hook (before mermaid is imported); `patched()` says whether it rewrote mermaid's
 * chunk. Only the files of mermaid's own `dist/chunks/mermaid.core/` are read for it.
 */
export function patchMermaidConfigCopy(): { patched: () => boolean } {
  let patched = false;
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (patched || !/\/mermaid\/dist\/chunks\/mermaid\.core\/chunk-[\w-]+\.mjs$/.test(url)) return loaded;
      const source = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
      if (!source.includes('var assignWithDepth_default = assignWithDepth;')) return loaded;
      const rewritten = patchMermaidChunk(source);
      if (rewritten === null) return loaded;
      patched = true;
      return { ...loaded, source: rewritten };
    },
  });
  return { patched: () => patched };
}
