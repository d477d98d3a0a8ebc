// The diagram parser (pipeline/site/diagram-parse-child.ts) gives mermaid a linkedom window, not
// jsdom's (a quarter of the load time), and a faster copy of its configuration
// (pipeline/site/mermaid-config-copy.ts), and loads only the functions mermaid imports of two
// packages' barrels (pipeline/site/mermaid-barrel-imports.ts). None may change any verdict: every diagram of mermaid's
// documentation corpus, a broken copy of each, the test suite's error cases, labels that give
// DOMPurify work and directives and front matter that change the configuration get the same outcome
// and the same message, line breaks included, as the same child given a jsdom window before it loads
// (it keeps a window it finds) and mermaid as it is shipped (`--as-shipped`). The built child
// (dist/diagram-parse.mjs, linkedom bundled into it; npm test builds it first) gives the same, and
// loads no more modules from node_modules than it should (its answer's `packages`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BARRELS } from './mermaid-barrel-imports.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'diagram-parse-child.ts');
/** The same child as the package runs it: built (scripts/build.mjs), linkedom bundled into it. */
const BUILT_CHILD = path.resolve(HERE, '..', '..', 'dist', 'diagram-parse.mjs');
/**
 * At most this many modules come from node_modules in the built child (each costs Node's module
 * loader about half a millisecond): mermaid 12.3's own need about 150; linkedom loaded from its own
 * files would add about 200, a trimmed barrel loaded whole 50-400.
 */
const MAX_BUILT_MODULES = 200;
const CORPUS = path.join(HERE, 'fixtures', 'mermaid-corpus');

/** The error cases of cli/stage-checks.test.ts and pipeline/site/diagrams.test.ts, and the DOM's own work. */
const CASES = [
  'flowchart LR\n  source --> transform\n  transform --> --> sink\n  sink --> done\n',
  'flowchart LR\n  A --> --> B[\n',
  'flowchart LR\n  a --> b\n',
  'not a diagram at all\n',
  '',
  'flowchart LR\n  A["<b>bold</b> <script>alert(1)</script>"] --> B["<img src=x onerror=alert(1)>"]\n',
  "flowchart LR\n  A[\"<a href='https://example.com' target='_blank'>link</a>\"] --> B[<style>p{}</style>x]\n",
  'flowchart LR\n  A --> B\n  click A href "javascript:alert(1)"\n  click B "https://example.com" "tip <b>x</b>"\n',
  '%%{init: {"securityLevel": "loose"}}%%\nflowchart LR\n  A["<i>loose</i>"] --> B\n',
  '%%{init: {"securityLevel": "antiscript"}}%%\nflowchart LR\n  A["<script>x</script>y"] --> B\n',
  '%%{init: {"htmlLabels": false}}%%\nflowchart LR\n  A["<b>no html</b>"] --> B\n',
  '%%{init: {"dompurifyConfig": {"ALLOWED_TAGS": ["b"]}}}%%\nflowchart LR\n  A["<b>b</b><i>i</i>"] --> B\n',
  'sequenceDiagram\n  box Aqua Group one\n  participant A\n  end\n  box rgb(1,2,3) Two\n  participant B\n  end\n' +
    '  box NotAColour Three words\n  participant C\n  end\n  A->>B: hi<br/>there\n  Note over A,B: <b>note</b>\n',
  'sequenceDiagram\n  box\n  participant A\n  end\n  A->>A: self\n',
  'classDiagram\n  class A~T~ {\n    +List~int~ items\n    +run(x) bool$\n  }\n  A <|-- B : <b>extends</b>\n',
  'stateDiagram-v2\n  [*] --> S1 : <i>go</i>\n  note right of S1\n    <b>a note</b>\n  end note\n',
  'sequenceDiagram\n  A->>B: unclosed\n  loop forever\n',
  'gantt\n  dateFormat YYYY-MM-DD\n  section S\n  task :a1, 2024-13-45, 3d\n',
  // The configuration: directives and front matter (the parse copies it per diagram and per vertex).
  '%%{init: {"theme": "dark", "flowchart": {"htmlLabels": null, "curve": "basis"}}}%%\nflowchart LR\n  A --> B\n',
  '%%{init: {"__proto__": {"polluted": 1}, "constructor": {"x": 1}, "toString": "s"}}%%\nflowchart LR\n  A --> B\n',
  '%%{init: {"flowchart": {"__proto__": {"htmlLabels": false}}, "themeVariables": {"primaryColor": null}}}%%\ngraph TD\n  A --> B\n',
  '%%{init: {"theme": "forest"}}%%\n%%{init: {"theme": "neutral", "fontFamily": "serif"}}%%\nsequenceDiagram\n  A->>B: hi\n',
  '---\nconfig:\n  theme: base\n  themeVariables:\n    primaryColor: "#ff0000"\n  flowchart:\n    htmlLabels: false\n---\n' +
    'flowchart LR\n  A["<b>x</b>"] --> B\n',
  '---\nconfig:\n  layout: elk\n  look: handDrawn\n  __proto__:\n    x: 1\n---\nflowchart LR\n  A --> B\n',
  '---\ntitle: t\nconfig:\n  gantt:\n    barHeight: null\n---\ngantt\n  dateFormat YYYY-MM-DD\n  section S\n  t :a1, 2024-01-01, 3d\n',
  '%%{init: {"securityLevel": "strict", "secure": ["theme"], "theme": "dark"}}%%\nflowchart LR\n  A --> B\n',
  '%%{init: {"themeVariables": {"fontFamily": "<script>x</script>"}, "arrowMarkerAbsolute": true}}%%\nflowchart LR\n  A --> B\n',
  '%%{init: {"theme": "dark"}}%%\nflowchart LR\n  A --> B\n  B --> C\n  C --> D\n  click A call f()\n',
];

/** Each corpus diagram, and a broken copy of it (an arrow with nothing on either side after its first line). */
function sources(): string[] {
  const corpus = readdirSync(CORPUS)
    .filter((name) => name.endsWith('.mmd'))
    .sort()
    .map((name) => readFileSync(path.join(CORPUS, name), 'utf8'));
  const broken = corpus.map((text) => text.replace(/\n/, '\n  --> --> ][\n'));
  return [...corpus, ...broken, ...CASES];
}

/** The child's answer (outcomes: null when it parses; else mermaid's message), run as `argv` with the sources on stdin. */
function outcomes(
  argv: string[],
  input: string[],
): {
  results: Array<string | null>;
  patched: boolean;
  configReused: boolean;
  configKept: boolean;
  trimmed: string[];
  packages: Record<string, number>;
} {
  const child = spawnSync(process.execPath, argv, {
    cwd: path.resolve(HERE, '..', '..'),
    input: `${JSON.stringify({ sources: input })}\n`,
    encoding: 'utf8',
    timeout: 300_000, // a hang guard: both parse the corpus twice in a few seconds
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(child.status, 0, `${argv.join(' ')}: ${child.error?.message ?? child.signal ?? ''} ${child.stderr}`);
  const answer = JSON.parse(child.stdout) as {
    results?: Array<string | null>;
    unavailable?: string;
    patched?: boolean;
    configReused?: boolean;
    configKept?: boolean;
    trimmed?: string[];
    packages?: Record<string, number>;
  };
  assert.equal(answer.unavailable, undefined);
  assert.equal(answer.results?.length, input.length);
  return {
    results: answer.results!,
    patched: answer.patched === true,
    configReused: answer.configReused === true,
    configKept: answer.configKept === true,
    trimmed: answer.trimmed ?? [],
    packages: answer.packages ?? {},
  };
}

test("the parser (linkedom, mermaid's configuration copied faster) gives every diagram the outcome and message of jsdom and mermaid as shipped", {
  timeout: 600_000,
}, () => {
  const input = sources();
  const jsdomFirst =
    "const { JSDOM } = await import('jsdom'); const { window } = new JSDOM('');" +
    ' Object.assign(globalThis, { window, document: window.document });' +
    ` await import(${JSON.stringify(pathToFileURL(CHILD).href)});`;
  const reference = outcomes(['--input-type=module', '-e', jsdomFirst, '--', '--as-shipped'], input);
  assert.equal(reference.patched, false);
  assert.equal(reference.configReused, false);
  assert.equal(reference.configKept, false);
  assert.deepEqual(reference.trimmed, []);
  const parser = outcomes([CHILD], input);
  // The speed-up applies (docs/performance.md): a mermaid whose assignWithDepth changed is loaded as it is.
  assert.equal(parser.patched, true, 'the child ran mermaid unpatched: review pipeline/site/mermaid-config-copy.ts');
  assert.equal(
    parser.configReused,
    true,
    "FlowDB's copies are not reused: review pipeline/site/mermaid-config-copy.ts",
  );
  assert.equal(
    parser.configKept,
    true,
    'the configuration made of the site configuration alone is not kept: review pipeline/site/mermaid-config-copy.ts',
  );
  // mermaid's barrel imports are trimmed (pipeline/site/mermaid-barrel-imports.ts): a barrel that changed is loaded whole.
  assert.deepEqual(
    parser.trimmed,
    [...BARRELS].sort(),
    'a barrel was loaded whole: review pipeline/site/mermaid-barrel-imports.ts',
  );
  // The built child (what the package runs) loads linkedom from its own bundle, not its 178 files.
  const built = outcomes([BUILT_CHILD], input);
  assert.equal(built.patched && built.configReused && built.configKept, true);
  assert.deepEqual(built.trimmed, [...BARRELS].sort());
  assert.equal(
    built.packages.linkedom,
    undefined,
    'the built parser loads linkedom from node_modules: see scripts/build.mjs',
  );
  assert.ok(parser.packages.linkedom! > 0, 'not a count of nothing: the source child loads linkedom from node_modules');
  const modules = Object.values(built.packages).reduce((sum, n) => sum + n, 0);
  assert.ok(
    modules <= MAX_BUILT_MODULES,
    `the built parser loads ${modules} modules from node_modules: ${JSON.stringify(built.packages)}`,
  );
  const withJsdom = reference.results;
  const differing = input.flatMap((source, index) =>
    withJsdom[index] === parser.results[index] && withJsdom[index] === built.results[index]
      ? []
      : [{ source, asShipped: withJsdom[index], parser: parser.results[index], built: built.results[index] }],
  );
  assert.deepEqual(differing, []);
  // Not a comparison of nothing: most of the corpus parses, its broken copies and the error cases do not.
  const failures = withJsdom.filter((message) => message !== null);
  assert.ok(failures.length >= 150, `${failures.length} of ${input.length} do not parse`);
  assert.ok(withJsdom.filter((message) => message === null).length >= 162);
  assert.ok(
    failures.some((message) => /Parse error on line 3:\n/.test(message!)),
    'a message with its line breaks',
  );
});
