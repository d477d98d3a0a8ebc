// copyWithDepth (pipeline/site/mermaid-config-copy.ts) builds what mermaid's own
// `assignWithDepth({}, src, { depth })` builds, on mermaid's configuration and on seeded random
// objects with what a diagram's directives and front matter can hold (JSON and YAML: nulls,
// `__proto__` and `constructor` keys, arrays with repeats and NaN) and more (holes, functions,
// class instances, symbol keys, getters): the same own keys in the same order, the same property
// attributes and prototypes, the same objects shared with `src` and new ones where mermaid makes
// new ones. And the patch applies to the installed mermaid.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { prng } from '../../cli/fuzz-cases.ts';
import {
  copyWithDepth,
  patchMermaidChunk,
  patchMermaidConfigKept,
  patchMermaidFlowDb,
  patchMermaidGetConfig,
} from './mermaid-config-copy.ts';

type Assign = (dst: unknown, src: unknown, config?: { depth?: number }) => unknown;

const CHUNKS = path.join(
  path.dirname(createRequire(import.meta.url).resolve('mermaid/package.json')),
  'dist',
  'chunks',
  'mermaid.core',
);

/** mermaid's chunk that defines `assignWithDepth` (its name carries a hash): its path and source. */
function definingChunk(): { file: string; source: string } {
  for (const name of readdirSync(CHUNKS).sort()) {
    if (!name.endsWith('.mjs')) continue;
    const source = readFileSync(path.join(CHUNKS, name), 'utf8');
    if (source.includes('var assignWithDepth_default = assignWithDepth;'))
      return { file: path.join(CHUNKS, name), source };
  }
  throw new Error(`no chunk of ${CHUNKS} defines assignWithDepth`);
}

const KEYS = [
  'theme',
  'flowchart',
  'htmlLabels',
  'a',
  'b',
  '0',
  '7',
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
];
const SYMBOL = Symbol('key');
class Themed {
  color = '#fff';
}

function randomValue(next: () => number, level: number): unknown {
  const pick = next();
  if (level <= 0 || pick < 0.45) {
    const scalars = [null, undefined, 0, 1.5, Number.NaN, '', 'x', true, false, () => 1];
    return scalars[Math.floor(next() * scalars.length)];
  }
  if (pick < 0.6) {
    const array: unknown[] = [];
    const length = Math.floor(next() * 5);
    for (let index = 0; index < length; index++) array.push(randomValue(next, 0));
    if (next() < 0.3) array.push(array[0]); // a repeat
    if (next() < 0.15) array[length + 2] = 'after a hole';
    if (next() < 0.2) array.push({ nested: 1 });
    return array;
  }
  if (pick < 0.65) return new Themed();
  return randomObject(next, level - 1);
}

function randomObject(next: () => number, level: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const count = Math.floor(next() * 6);
  for (let index = 0; index < count; index++) {
    const key = KEYS[Math.floor(next() * KEYS.length)]!;
    // defineProperty: `object[key] =` would set `__proto__` through its setter (JSON.parse defines it too).
    Object.defineProperty(object, key, {
      value: randomValue(next, level),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  if (next() < 0.05) (object as Record<symbol, unknown>)[SYMBOL] = 'symbol';
  if (next() < 0.05)
    Object.defineProperty(object, 'getter', { get: () => ({ made: 'by a getter' }), enumerable: true });
  if (next() < 0.05) Object.defineProperty(object, 'hidden', { value: 1, enumerable: false });
  return object;
}

/** Every object `value` holds (itself included), at any depth. */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || into.has(value)) return into;
  into.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key)!;
    if ('value' in descriptor) objectsOf(descriptor.value, into);
  }
  return into;
}

/**
 * The same thing: an object of `src` is the very same object; a new object has the same prototype
 * and own keys (in order) with the same attributes and the same values, compared the same way.
 */
function assertSame(expected: unknown, actual: unknown, fromSource: ReadonlySet<object>, where: string): void {
  if (Object.is(expected, actual)) return;
  assert.ok(
    typeof expected === 'object' && expected !== null,
    `${where}: ${inspect(actual)} is not ${inspect(expected)}`,
  );
  assert.ok(typeof actual === 'object' && actual !== null, `${where}: ${inspect(actual)} is not an object`);
  assert.ok(
    !fromSource.has(expected) && !fromSource.has(actual),
    `${where}: one is an object of src, the other is not`,
  );
  assert.equal(Object.getPrototypeOf(actual), Object.getPrototypeOf(expected), `${where}: prototype`);
  assert.equal(Array.isArray(actual), Array.isArray(expected), `${where}: array`);
  const keys = Reflect.ownKeys(expected);
  assert.deepEqual(Reflect.ownKeys(actual), keys, `${where}: own keys`);
  for (const key of keys) {
    const want: PropertyDescriptor = Reflect.getOwnPropertyDescriptor(expected, key)!;
    const got: PropertyDescriptor = Reflect.getOwnPropertyDescriptor(actual, key)!;
    assert.deepEqual(
      { ...got, value: undefined, get: undefined, set: undefined },
      { ...want, value: undefined, get: undefined, set: undefined },
      `${where}.${String(key)}: attributes`,
    );
    assertSame(want.value, got.value, fromSource, `${where}.${String(key)}`);
  }
}

/** What `make` returns, or the message of what it throws. */
function outcome(make: () => unknown): { value?: unknown; error?: string } {
  try {
    return { value: make() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

test("copyWithDepth builds what mermaid's assignWithDepth({}, src) builds, on 20,000 seeded objects", async () => {
  const { file } = definingChunk();
  const { assignWithDepth_default: assign } = (await import(pathToFileURL(file).href)) as {
    assignWithDepth_default: Assign;
  };
  const next = prng(40);
  let fallbacks = 0;
  let errors = 0;
  for (let index = 0; index < 20_000; index++) {
    const src: unknown =
      next() < 0.03 ? randomValue(next, 0) : next() < 0.03 ? [randomObject(next, 1)] : randomObject(next, 3);
    const depth = Math.floor(next() * 4);
    const fromSource = objectsOf(src);
    const expected = outcome(() => assign({}, src, { depth }));
    const actual = outcome(() => copyWithDepth(src, depth, assign));
    assert.equal(actual.error, expected.error, `#${index} depth ${depth}: the same error or none`);
    assertSame(expected.value, actual.value, fromSource, `#${index} depth ${depth}`);
    if (expected.error !== undefined) errors++;
    if (typeof src === 'object' && src !== null && Object.values(src).includes(null)) fallbacks++;
  }
  assert.ok(fallbacks > 1000, `${fallbacks} objects with a null value`); // not only the spread path
  assert.ok(errors < 100, `${errors} errors`); // mostly copies
});

test("copyWithDepth copies mermaid's default configuration as mermaid does", async () => {
  const { file } = definingChunk();
  const chunk = (await import(pathToFileURL(file).href)) as { assignWithDepth_default: Assign; defaultConfig: object };
  const assign = chunk.assignWithDepth_default;
  for (const depth of [0, 1, 2, 3]) {
    const fromSource = objectsOf(chunk.defaultConfig);
    assertSame(
      assign({}, chunk.defaultConfig, { depth }),
      copyWithDepth(chunk.defaultConfig, depth, assign),
      fromSource,
      'config',
    );
  }
});

test('the patch applies to the installed mermaid: every assignWithDepth_default({}, x) of its chunk becomes a copy', () => {
  const { source } = definingChunk();
  const patched = patchMermaidChunk(source);
  assert.ok(patched !== null, 'the installed mermaid defines another assignWithDepth: review copyWithDepth against it');
  assert.doesNotMatch(patched, /assignWithDepth_default\(\{\}, /);
  const calls = patched.match(/codelabgenCopyWithDepth\(\w+, 2, assignWithDepth_default\)/g) ?? [];
  assert.ok(calls.length >= 2, `${calls.length} calls rewritten`); // getConfig and updateCurrentConfig at least
  assert.match(
    patched,
    /var getConfig = [^\n]*\n\s*return codelabgenCopyWithDepth\(currentConfig, 2, assignWithDepth_default\);/,
  );
  // Another definition of assignWithDepth is not patched.
  assert.equal(patchMermaidChunk(source.replace('depth - 1', 'depth - 2')), null);
  assert.equal(patchMermaidChunk('export {};'), null);
});

/** mermaid's chunk that defines FlowDB, the flowchart's database. */
function flowDbChunk(): string {
  for (const name of readdirSync(CHUNKS).sort()) {
    if (!name.endsWith('.mjs')) continue;
    const source = readFileSync(path.join(CHUNKS, name), 'utf8');
    if (source.includes('var FlowDB = class {')) return source;
  }
  throw new Error(`no chunk of ${CHUNKS} defines FlowDB`);
}

test("FlowDB's copies of an unchanged configuration: the patches apply to the installed mermaid; getConfig gives back only its own copy", () => {
  const patched = patchMermaidChunk(definingChunk().source)!;
  const reusing = patchMermaidGetConfig(patched);
  assert.ok(reusing !== null, "the installed mermaid's getConfig changed: review pipeline/site/mermaid-config-copy.ts");
  assert.equal(
    patchMermaidGetConfig(patched.replace('return codelabgenCopyWithDepth(currentConfig', 'return (currentConfig')),
    null,
  );
  const flow = flowDbChunk();
  const flowPatched = patchMermaidFlowDb(flow);
  assert.ok(
    flowPatched !== null,
    "the installed mermaid's FlowDB changed: review it (does it still only read this.config?)",
  );
  assert.equal(flowPatched.split('this.config = getConfig();').length, 1);
  assert.equal(
    flowPatched.split('this.config = getConfig(Symbol.for("codelabgen.mermaid-config-unchanged"), this.config);')
      .length,
    4,
  );
  assert.equal(patchMermaidFlowDb(flow.replace('this.config.maxEdges ?? 500', 'this.config.maxEdges ?? 501')), null);

  // The patched getConfig, run with a stand-in copy: a copy is given back only to a caller that asks
  // with the symbol, for a copy made on such a call, while the configuration object is the same.
  const definition = /var codelabgenConfigCopied = [\s\S]*?\n\}, "getConfig"\);\n/.exec(reusing)![0];
  const made = new Function(
    '__name',
    'codelabgenCopyWithDepth',
    'assignWithDepth_default',
    `let currentConfig = { n: 1 };\n${definition}\nreturn { getConfig, set: (config) => { currentConfig = config; } };`,
  )(
    (f: unknown) => f,
    (config: object) => ({ ...config }),
    null,
  ) as {
    getConfig: (unchanged?: symbol, previous?: object) => object;
    set: (config: object) => void;
  };
  const unchanged = Symbol.for('codelabgen.mermaid-config-unchanged');
  const first = made.getConfig(unchanged, undefined);
  assert.deepEqual(first, { n: 1 });
  assert.equal(made.getConfig(unchanged, first), first, 'reused while the configuration is the same object');
  const plain = made.getConfig();
  assert.notEqual(plain, first);
  assert.notEqual(made.getConfig(unchanged, plain), plain, 'a copy made for another caller is not given back');
  assert.notEqual(made.getConfig(Symbol('other'), first), first);
  assert.notEqual(made.getConfig(undefined, first), first);
  made.set({ n: 2 });
  const second = made.getConfig(unchanged, first);
  assert.deepEqual(second, { n: 2 }, 'a new configuration: a new copy');
  assert.equal(made.getConfig(unchanged, second), second);
});

/**
 * Seeded calls of mermaid's configuration functions (what a parse, `initialize` and the public API
 * call, with empty and other directives) in a process of its own, mermaid as shipped or patched (the
 * child's load hook): after each, a digest of what `getConfig`, `getSiteConfig` and
 * `getUserDefinedConfig` give. A copy handed out is changed now and then, as a caller may.
 */
const CONFIG_CALLS = `
const [mode, seed, count, chunk, patch, fuzz] = JSON.parse(process.argv.at(-1));
let applied = null;
if (mode === 'patched') applied = (await import(patch)).patchMermaidConfigCopy();
const c = await import(chunk);
const { prng } = await import(fuzz);
const { createHash } = await import('node:crypto');
const next = prng(seed);
const pick = (list) => structuredClone(list[Math.floor(next() * list.length)]);
const TYPES = [undefined, 'flowchart-v2', 'flowchart', 'sequence', 'gantt', 'xychart', 'er', 'classDiagram'];
const DIRECTIVES = [{}, {}, {}, { theme: 'dark' }, { flowchart: { curve: 'basis' } }, { themeVariables: { primaryColor: '#ff0000' } },
  { fontFamily: 'serif' }, { look: 'handDrawn' }, { securityLevel: 'loose' }, { flowchart: { arrowMarkerAbsolute: true } }];
const SITE = [{ theme: 'forest' }, { fontSize: 12 }, { flowchart: { htmlLabels: false } }, { startOnLoad: false }, {}];
const CALLS = {
  reset: () => c.reset(),
  scope: () => c.setDiagramConfigScope(pick(TYPES)),
  addDirective: () => c.addDirective(pick(DIRECTIVES)),
  setConfig: () => c.setConfig(pick(DIRECTIVES)),
  updateSiteConfig: () => c.updateSiteConfig(pick(SITE)),
  setSiteConfig: () => c.setSiteConfig(pick(SITE)),
  saveConfigFromInitialize: () => c.saveConfigFromInitialize(pick(SITE)),
  changeCopy: () => { const copy = c.getConfig(); copy.theme = 'neutral'; copy.flowchart.curve = 'step'; copy.themeVariables.primaryColor = '#000'; },
};
const names = Object.keys(CALLS);
const weights = [4, 6, 4, 2, 1, 1, 1, 1];
const steps = [];
for (let i = 0; i < count; i++) {
  let r = next() * weights.reduce((a, b) => a + b, 0);
  let k = 0;
  while (r >= weights[k]) r -= weights[k++];
  CALLS[names[k]]();
  const seen = JSON.stringify([c.getConfig(), c.getSiteConfig(), c.getUserDefinedConfig()]);
  steps.push(names[k] + ' ' + createHash('sha256').update(seen).digest('hex').slice(0, 16));
}
process.stdout.write(JSON.stringify({ kept: applied?.configKept() ?? false, steps }));
`;

function configCalls(mode: 'shipped' | 'patched', seed: number, count: number): { kept: boolean; steps: string[] } {
  const args = [
    mode,
    seed,
    count,
    pathToFileURL(definingChunk().file).href,
    new URL('./mermaid-config-copy.ts', import.meta.url).href,
    new URL('../../cli/fuzz-cases.ts', import.meta.url).href,
  ];
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', CONFIG_CALLS, '--', JSON.stringify(args)], {
    encoding: 'utf8',
    timeout: 120_000,
    killSignal: 'SIGKILL',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { kept: boolean; steps: string[] };
}

test("the configuration made of the site configuration alone, kept: the patch applies to the installed mermaid; mermaid's \
configuration functions give what they give as shipped", () => {
  const reusing = patchMermaidGetConfig(patchMermaidChunk(definingChunk().source)!)!;
  const keeping = patchMermaidConfigKept(reusing);
  assert.ok(keeping !== null, "the installed mermaid's configuration functions changed: review patchMermaidConfigKept");
  assert.equal(
    keeping.split('codelabgenConfigKept.clear();').length,
    4,
    'setSiteConfig, saveConfigFromInitialize, updateSiteConfig',
  );
  assert.equal(patchMermaidConfigKept(reusing.replace('diagramConfigKey = void 0;', 'diagramConfigKey = null;')), null);
  assert.equal(keeping.split('cfg.themeVariables = { ...themes_default[cfg.theme].getThemeVariables(').length, 2);
  for (const seed of [1, 2, 3]) {
    const shipped = configCalls('shipped', seed, 300);
    const patched = configCalls('patched', seed, 300);
    assert.equal(patched.kept, true);
    const differs = patched.steps.findIndex((step, index) => step !== shipped.steps[index]);
    assert.equal(
      differs,
      -1,
      `seed ${seed}, call ${differs}: ${shipped.steps.slice(Math.max(0, differs - 3), differs + 1).join(', ')}`,
    );
  }
});

test("every theme's variables are own enumerable data properties with string keys (a spread of one copies all a copy sees)", async () => {
  const chunk = (await import(pathToFileURL(definingChunk().file).href)) as {
    themes_default: Record<string, { getThemeVariables: (overrides?: object) => object }>;
  };
  const themes = Object.keys(chunk.themes_default);
  assert.ok(themes.length >= 10, themes.join(', '));
  for (const theme of themes) {
    for (const overrides of [undefined, {}, { primaryColor: '#ff0000', fontFamily: 'serif', darkMode: true }]) {
      const variables = chunk.themes_default[theme]!.getThemeVariables(overrides);
      const keys = Reflect.ownKeys(variables);
      assert.ok(keys.length > 200, `${theme}: ${keys.length} variables`);
      for (const key of keys) {
        const descriptor = Reflect.getOwnPropertyDescriptor(variables, key)!;
        assert.ok(typeof key === 'string' && descriptor.enumerable && 'value' in descriptor, `${theme}.${String(key)}`);
      }
    }
  }
});
