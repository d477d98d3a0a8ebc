// The diagram parser's own process (pipeline/site/diagram-parse.ts starts it): starts loading mermaid
// at once, reads `{ sources: string[] }` as one line of JSON on stdin (its parent sends it when it
// knows every diagram to parse), parses each with mermaid (no drawing, no browser) and writes
// `{ results: (string | null)[] }` (mermaid's message, or null when it parses) or
// `{ unavailable: string }` on stdout. A process of its own: mermaid's sanitizer (DOMPurify) needs a
// DOM, and the window it gets here never becomes a global of the CLI or the MCP server. The V8
// compile cache (NODE_COMPILE_CACHE, set by the parent) is in the user's own diagram cache.
//
// The window is linkedom's, not jsdom's: it loads in a quarter of the time (0.15 s against 0.55 s of
// CPU), and mermaid's parse asks of it only DOMPurify's sanitizing of labels, which decides nothing
// about whether a diagram parses. pipeline/site/diagram-parse-dom.test.ts holds that every diagram of
// the mermaid corpus and every error case gets the same outcome and message as under jsdom. The built
// child (dist/diagram-parse.mjs) has linkedom bundled in (scripts/build.mjs): one file instead of
// about 200 modules from node_modules.
//
// mermaid's configuration copy is made faster here (pipeline/site/mermaid-config-copy.ts: a module
// load hook, registered before mermaid loads, unless `--as-shipped` is given, as the comparison test
// does); the answer says whether it applied (`patched`), and whether the flowchart's copies of an
// unchanged configuration are reused (`configReused`), and whether the configuration made of the site
// configuration alone is kept per diagram type (`configKept`). mermaid's imports of two packages'
// barrels load only the functions it imports (pipeline/site/mermaid-barrel-imports.ts; `trimmed`
// lists them).
import { registerHooks } from 'node:module';
import { trimMermaidBarrelImports } from './mermaid-barrel-imports.ts';
import { patchMermaidConfigCopy } from './mermaid-config-copy.ts';

interface Mermaid {
  parse(text: string): Promise<unknown>;
  initialize(config: object): void;
}

/**
 * A window for mermaid and DOMPurify (both read the global `window` when they load), unless the
 * process that imported this module set one already (the comparison test's jsdom window).
 */
async function installWindow(): Promise<void> {
  if ('window' in globalThis) return;
  const { parseHTML } = await import('linkedom');
  const { window, document } = parseHTML('<!doctype html><html><head></head><body></body></html>');
  // A sequence diagram's `box` tests its colour with `new Option().style` where there is no CSS.supports.
  class Option {
    constructor() {
      // biome-ignore lint/correctness/noConstructorReturn: the HTML Option() constructor makes an element
      return document.createElement('option');
    }
  }
  Object.assign(globalThis, { window, document, Option });
}

/**
 * The modules loaded from each package's folder in node_modules until mermaid is loaded (the
 * answer's `packages`; a diagram type's own modules load at its first parse): Node's module loader
 * costs about half a millisecond a module, so pipeline/site/diagram-parse-dom.test.ts fails when the
 * built parser loads more of them than it should (a barrel loaded whole, linkedom loaded from its
 * 178 files instead of the parser's own bundle).
 */
const packages: Record<string, number> = {};
let packagesAtLoad: Record<string, number> = {};
registerHooks({
  load(url, context, nextLoad) {
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (name !== undefined) packages[name] = (packages[name] ?? 0) + 1;
    return nextLoad(url, context);
  },
});

const asShipped = process.argv.includes('--as-shipped');
const patch = asShipped ? null : patchMermaidConfigCopy();
const trim = asShipped ? null : trimMermaidBarrelImports();

async function loadMermaid(): Promise<Mermaid> {
  await installWindow();
  const mermaid = ((await import('mermaid')) as { default: Mermaid }).default;
  mermaid.initialize({ startOnLoad: false });
  packagesAtLoad = { ...packages };
  return mermaid;
}

/** The first line on stdin (or all of it, at its end). */
function readInput(): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end !== -1) {
        process.stdin.pause();
        resolve(text.slice(0, end));
      }
    });
    process.stdin.on('end', () => resolve(text));
  });
}

function answer(value: object): void {
  process.stdout.write(JSON.stringify(value), () => process.exit(0));
}

const loading = loadMermaid().then(
  (mermaid) => ({ mermaid }),
  (error: unknown) => ({ error: error as Error }),
);
const line = await readInput();
if (line.trim() === '') process.exit(0); // the parent stopped before sending anything: nothing to parse
const input = JSON.parse(line) as { sources: string[] };
const loaded = await loading;
if ('error' in loaded) answer({ unavailable: `mermaid could not be loaded (${loaded.error.message})` });
else {
  const results: Array<string | null> = [];
  for (const source of input.sources) {
    try {
      await loaded.mermaid.parse(source);
      results.push(null);
    } catch (error) {
      results.push(String((error as Error)?.message ?? error));
    }
  }
  answer({
    results,
    patched: patch?.patched() ?? false,
    configReused: patch?.configReused() ?? false,
    configKept: patch?.configKept() ?? false,
    trimmed: trim?.trimmed() ?? [],
    packages: packagesAtLoad,
  });
}
