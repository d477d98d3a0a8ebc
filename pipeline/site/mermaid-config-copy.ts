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
//
// The same hook also lets the flowchart's database (FlowDB, which copies the configuration in its
// constructor, in `clear` and for every labelled vertex) keep its last copy while mermaid's
// configuration is the same object (patchMermaidGetConfig, patchMermaidFlowDb): only where FlowDB is
// byte for byte the one reviewed, and the child says so (`configReused`). And `updateCurrentConfig`
// keeps the configuration it made of the site configuration alone for each diagram type and makes it
// current again (patchMermaidConfigKept): only where mermaid's configuration functions are byte for
// byte the ones reviewed, and the child says so (`configKept`).
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

/** mermaid's `getConfig` once patchMermaidChunk made its copy a copyWithDepth call. */
const GET_CONFIG = `var getConfig = /* @__PURE__ */ __name(() => {
  return codelabgenCopyWithDepth(currentConfig, 2, assignWithDepth_default);
}, "getConfig");
`;
/** What FlowDB passes (and nothing else does) to be given its own last copy back while the configuration is unchanged. */
const UNCHANGED = 'Symbol.for("codelabgen.mermaid-config-unchanged")';
/**
 * `getConfig(UNCHANGED, previous)` gives `previous` back when it is a copy that call made of the
 * very `currentConfig` there is now: mermaid replaces `currentConfig` with a new object on every
 * change (`updateCurrentConfig`, the only place it is set, makes it from a fresh copy) and never
 * hands it out but as a copy, so the same object holds the same configuration. Any other call (no
 * argument: every other caller) makes a copy as before.
 */
const GET_CONFIG_REUSING = `var codelabgenConfigCopied = new WeakMap();
var getConfig = /* @__PURE__ */ __name((codelabgenUnchanged, codelabgenPrevious) => {
  if (codelabgenUnchanged === ${UNCHANGED} && codelabgenPrevious !== void 0 && codelabgenConfigCopied.get(codelabgenPrevious) === currentConfig) {
    return codelabgenPrevious;
  }
  const codelabgenCopy = codelabgenCopyWithDepth(currentConfig, 2, assignWithDepth_default);
  if (codelabgenUnchanged === ${UNCHANGED}) codelabgenConfigCopied.set(codelabgenCopy, currentConfig);
  return codelabgenCopy;
}, "getConfig");
`;

/** mermaid's flowchart database (its constructor, `clear` and `addVertex` each copy the configuration). */
const FLOW_DB =
  /\/\/ src\/diagrams\/flowchart\/flowDb\.ts\n[\s\S]*?\n\/\/ src\/diagrams\/flowchart\/flowRenderer-v3-unified\.ts\n/;
/** sha256 of FLOW_DB's text in mermaid 12.3.0 (dist/chunks/mermaid.core/chunk-QB3YPZ4I.mjs). */
const KNOWN_FLOW_DB = '9b1e7ab71c027e10f6d4f883ddbc302c8f57df6393c0b9f2825b581a4f9106e2';
const FLOW_DB_COPY = 'this.config = getConfig();';

/** patchMermaidChunk's output with `getConfig` able to give FlowDB its last copy back (GET_CONFIG_REUSING), or null. */
export function patchMermaidGetConfig(patched: string): string | null {
  return patched.split(GET_CONFIG).length === 2 ? patched.replace(GET_CONFIG, GET_CONFIG_REUSING) : null;
}

/**
 * The flowchart chunk with FlowDB's three `this.config = getConfig();` asking for its last copy back
 * while the configuration is unchanged, or null when its FlowDB is not byte for byte the one
 * reviewed: FlowDB only reads `this.config` (`sanitizeText`, `maxEdges`, `formatUrl`, which read it),
 * so a copy it kept is as good as a new one of the same configuration. A flowchart's parse then
 * copies the configuration twice less (its `clear` right after its constructor) plus once per
 * labelled vertex after the first.
 */
export function patchMermaidFlowDb(source: string): string | null {
  const flowDb = FLOW_DB.exec(source);
  if (flowDb === null) return null;
  if (createHash('sha256').update(flowDb[0]).digest('hex') !== KNOWN_FLOW_DB) return null;
  const reusing = flowDb[0].replaceAll(FLOW_DB_COPY, `this.config = getConfig(${UNCHANGED}, this.config);`);
  return `${source.slice(0, flowDb.index)}${reusing}${source.slice(flowDb.index + flowDb[0].length)}`;
}

/** mermaid's configuration functions, from `siteConfig`'s declaration to `reset` (after patchMermaidGetConfig). */
const CONFIG_FUNCTIONS = /\nvar siteConfig = codelabgenCopyWithDepth\(defaultConfig, [\s\S]*?\n\}, "reset"\);\n/;
/** sha256 of CONFIG_FUNCTIONS's text in mermaid 12.3.0, patched by patchMermaidChunk and patchMermaidGetConfig. */
const KNOWN_CONFIG_FUNCTIONS = '64aa1f32fe62be6b7fe06f6bf89d1ae3d27ad9de4ea1f1874d72650e801cca41';
const UPDATE_CURRENT_CONFIG = 'var updateCurrentConfig = /* @__PURE__ */ __name((siteCfg, _directives) => {\n';
/**
 * `updateCurrentConfig` keeping what it made of the site configuration alone: called with
 * `siteConfig` while every directive (those given and mermaid's own list) is an empty object, it
 * makes the same configuration for the same diagram type (`diagramConfigKey`) each time, so the one
 * it made last time for that type is made current again. What it reads besides (`siteConfig`,
 * `siteConfigDelta`, `configFromInitialize`, `defaultConfig`) changes only in `setSiteConfig`,
 * `updateSiteConfig` and `saveConfigFromInitialize`, which forget what was kept. A configuration
 * made current is never changed: mermaid hands it out only as a copy (`getConfig`) and makes every
 * new one from a copy; what a copy shares with it (objects three levels down) it shares with
 * `siteConfig` too, as mermaid's own does. An empty directive adds nothing (`sanitize` and the merge
 * read its own keys; `resolveAppearance` reads its own properties); a call with anything else (a
 * directive with keys, `setConfig`'s, another base than `siteConfig`) runs mermaid's function as
 * it is. Per parse this spares `reset`, `setDiagramConfigScope` (twice) and `addDirective` their
 * copy of the configuration and the last two their theme's colours (a flowchart's `redux-color`).
 */
const UPDATE_CURRENT_CONFIG_KEEPING = `var codelabgenConfigKept = new Map();
var codelabgenEmptyDirective = (d) => typeof d === "object" && d !== null && Object.getPrototypeOf(d) === Object.prototype && Reflect.ownKeys(d).length === 0;
var updateCurrentConfig = /* @__PURE__ */ __name((siteCfg, _directives) => {
  if (siteCfg !== siteConfig || !_directives.every(codelabgenEmptyDirective) || !directives.every(codelabgenEmptyDirective)) {
    return codelabgenUpdateCurrentConfig(siteCfg, _directives);
  }
  const kept = codelabgenConfigKept.get(diagramConfigKey);
  if (kept !== void 0) {
    currentConfig = kept;
    return currentConfig;
  }
  const made = codelabgenUpdateCurrentConfig(siteCfg, _directives);
  codelabgenConfigKept.set(diagramConfigKey, made);
  return made;
}, "updateCurrentConfig");
var codelabgenUpdateCurrentConfig = /* @__PURE__ */ __name((siteCfg, _directives) => {
`;
const THEME_OF_CURRENT = 'cfg.themeVariables = themes_default[cfg.theme].getThemeVariables(themeVariables);';
/**
 * The theme's variables of a configuration updateCurrentConfig makes, as a plain object with the
 * same own properties in the same order. mermaid's theme object (a `Theme`, about 270 properties)
 * is one V8 keeps as a dictionary, which an object spread copies in about 90 µs against under 1 µs
 * for a plain one; and the configuration's theme is copied with it at every `getConfig` (about five
 * times per flowchart). The `Theme` itself is never seen: the current configuration is handed out
 * only as a copy, and a copy of either has the same own properties (`Theme`'s are all enumerable
 * data properties, no symbols: mermaid-config-copy.test.ts checks every theme).
 */
const THEME_OF_CURRENT_PLAIN = `cfg.themeVariables = { ...themes_default[cfg.theme].getThemeVariables(themeVariables) };`;
/** The functions that change what updateCurrentConfig reads, each made to forget what it kept first. */
const CONFIG_CHANGES = [
  'var setSiteConfig = /* @__PURE__ */ __name((conf) => {\n',
  'var saveConfigFromInitialize = /* @__PURE__ */ __name((conf) => {\n',
  'var updateSiteConfig = /* @__PURE__ */ __name((conf) => {\n',
];

/**
 * patchMermaidGetConfig's output with updateCurrentConfig keeping the configuration it made of the
 * site configuration alone (UPDATE_CURRENT_CONFIG_KEEPING), or null when mermaid's configuration
 * functions are not byte for byte the ones reviewed.
 */
export function patchMermaidConfigKept(patched: string): string | null {
  const functions = CONFIG_FUNCTIONS.exec(patched);
  if (functions === null) return null;
  if (createHash('sha256').update(functions[0]).digest('hex') !== KNOWN_CONFIG_FUNCTIONS) return null;
  let text = functions[0]
    .replace(UPDATE_CURRENT_CONFIG, UPDATE_CURRENT_CONFIG_KEEPING)
    .replace(THEME_OF_CURRENT, THEME_OF_CURRENT_PLAIN);
  for (const change of CONFIG_CHANGES) text = text.replace(change, `${change}  codelabgenConfigKept.clear();\n`);
  return `${patched.slice(0, functions.index)}${text}${patched.slice(functions.index + functions[0].length)}`;
}

/**
 * Registers the load hook (before mermaid is imported); `patched()` says whether it rewrote mermaid's
 * chunk, `configReused()` whether FlowDB's copies of an unchanged configuration are reused too. Only
 * the files of mermaid's own `dist/chunks/mermaid.core/` are read for it.
 */
export function patchMermaidConfigCopy(): {
  patched: () => boolean;
  configReused: () => boolean;
  configKept: () => boolean;
} {
  let patched = false;
  let getConfigReusing = false;
  let configReused = false;
  let configKept = false;
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!/\/mermaid\/dist\/chunks\/mermaid\.core\/chunk-[\w-]+\.mjs$/.test(url)) return loaded;
      const source = typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
      if (!patched && source.includes('var assignWithDepth_default = assignWithDepth;')) {
        const rewritten = patchMermaidChunk(source);
        if (rewritten === null) return loaded;
        patched = true;
        const reusing = patchMermaidGetConfig(rewritten);
        getConfigReusing = reusing !== null;
        const keeping = reusing === null ? null : patchMermaidConfigKept(reusing);
        configKept = keeping !== null;
        return { ...loaded, source: keeping ?? reusing ?? rewritten };
      }
      if (getConfigReusing && !configReused && source.includes('var FlowDB = class {')) {
        const rewritten = patchMermaidFlowDb(source);
        if (rewritten === null) return loaded;
        configReused = true;
        return { ...loaded, source: rewritten };
      }
      return loaded;
    },
  });
  return { patched: () => patched, configReused: () => configReused, configKept: () => configKept };
}
