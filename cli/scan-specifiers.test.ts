// "A content string that reaches a loader", closed by construction (docs/security.md "Specifiers"):
// a static scan lists every call that loads a module or starts a process with an argument that is not
// a string literal written in the code: import(), require(), any createRequire(), spawn,
// spawnSync, fork, exec*, new Worker(), and astro:assets (image(), getImage()). Each file holding one
// is on LOADER_SITES with where its argument comes from; any other such call fails the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAllowListed, productionSources } from './source-scan.ts';

/** Files with a computed loader or process call, and why no course text reaches it. */
const LOADER_SITES: Record<string, string> = {
  'bin/codelabgen.cjs':
    "the launcher: spawnSync of the package's own bootstrapped Node 22 (.cache/node22 beside it) on its own script, no shell; " +
    'require() of dist/state.cjs, its own bundle',
  'content-schemas/lazy-load.ts':
    "createRequire(): loads codelabgen's own bundle entries ('yaml', 'schemas'), named in the code",
  'cli/mcp/invoke.ts':
    "spawn(process.execPath, [this CLI's own script, ...argv]): argv from the tool's schema, no shell",
  'pipeline/site/diagrams.ts':
    'createRequire(..).resolve/require of package names written in the code (mermaid, katex, playwright)',
  'pipeline/site/chromium.ts': "createRequire(import.meta.url)('playwright'): a package name written in the code",
  'pipeline/site/diagram-cache.ts': "createRequire(..)('mermaid/package.json'): a package name written in the code",
  'pipeline/site/cache-root.ts': "createRequire(codelabgen's package.json).resolve.paths('astro')",
  'pipeline/site/mdx-docs.ts': "createRequire(..)('satteri'): a package name written in the code",
  'pipeline/site/diagram-parse.ts':
    "spawn/spawnSync of the parser's own entry in the package (process.execPath); the diagrams go as JSON on stdin, never as arguments",
  'pipeline/verify/sandbox-network.ts':
    "spawns slirp4netns (the machine's program) for a sandbox with network: true, its argv fixed but the sandbox's pid",
  'pipeline/progress/notify.ts':
    'spawns notify.command, the argv config.yaml names (never a shell), with the notification as JSON on stdin (docs/security.md, notifications)',
  'pipeline/site/worker-fork.ts': "fork() of the build worker's own entry in the package",
  'pipeline/verify/run-tests.ts':
    "spawn(program, args): the lesson's test command from its spec and config, run as an argv (no shell) in the sandbox (docs/verify.md)",
  'pipeline/verify/sandbox.ts': 'spawnSync(bwrap) probing the sandbox: the bwrap found on PATH, fixed arguments',
  'site/collections.ts':
    'astro:assets image(): each src is a staged copy <cache>/codelabgen-doc-images/<sha256>/<name>.<ext> (pipeline/site/doc-images.ts), never a course path',
  'site/lib/image-files.ts': 'astro:assets getImage() of the metadata image() made from the staged copy',
  'site/client/page.js':
    "the reader's browser import() of pagefind.js under the URL the page itself wrote (data-bundle: href('pagefind/'))",
  'site/layouts/Base.astro':
    "the reader's browser import() of the mermaid URL the page itself wrote (_codelabgen/mermaid/)",
};

/**
 * A loader or process call whose first argument is not a plain string literal: `import(`, `require(`,
 * spawn/spawnSync/fork/exec*(, and every `createRequire(` (the function it makes may be called by any
 * name), `new Worker(`, `image()` and `getImage(`.
 */
const LOADER_CALL = new RegExp(
  [
    String.raw`(?<![\w.$])(?:import|require|spawn|spawnSync|fork|execFile|execFileSync|exec|execSync)\s*\(\s*(?!(['"])[^'"\x60$\n]*\1\s*[,)])`,
    String.raw`\bcreateRequire\s*\(`,
    String.raw`\bnew\s+Worker\s*\(`,
    String.raw`\bimage\s*\(\s*\)`,
    String.raw`\bgetImage\s*\(`,
  ].join('|'),
  'g',
);

/** The computed loader and process calls of `code` (types and `import type` left out). */
export function loaderSites(code: string): string[] {
  const runtime = code.replace(/\bimport\s+type\b[^;]*;|\btypeof\s+import\s*\([^)]*\)/g, '');
  return [...runtime.matchAll(LOADER_CALL)].map((match) => match[0].replace(/\s+/g, ''));
}

test('no module loader, bundler or process takes a computed argument outside the allow-listed files', () => {
  assertAllowListed({
    sitesOf: loaderSites,
    allowed: LOADER_SITES,
    unlisted:
      'a loader or process call with a computed argument: write the argument as a literal, or add the file to ' +
      'LOADER_SITES saying why no course text can reach it',
    stale: 'these allow-listed files no longer have such a call: take them off LOADER_SITES',
  });
  const shells = [...productionSources()]
    .filter(([, code]) => /\bshell\s*:\s*(true\b|['"`])/.test(code))
    .map(([file]) => file);
  assert.deepEqual(shells, [], 'a process started through a shell: pass an argv instead (no shell parses course text)');
});

test('the scan sees computed specifiers and leaves literal ones alone', () => {
  assert.deepEqual(loaderSites("await import('./commands/site.ts');"), []);
  assert.deepEqual(loaderSites('await import(file);'), ['import(']);
  assert.deepEqual(loaderSites('await import(`./${name}.ts`);'), ['import(']);
  assert.deepEqual(loaderSites("const { x } = await import('./a.ts' + suffix);"), ['import(']);
  assert.deepEqual(loaderSites("spawnSync(program, ['-v']);"), ['spawnSync(']);
  assert.deepEqual(loaderSites("spawn('git', ['log']);"), []);
  assert.deepEqual(loaderSites('const load = createRequire(import.meta.url); load(file);'), ['createRequire(']);
  assert.deepEqual(loaderSites('schema: ({ image }) => z.object({ src: image() })'), ['image()']);
  assert.deepEqual(loaderSites("import type { X } from './x.ts'; type Y = typeof import('./y.ts');"), []);
  assert.deepEqual(loaderSites('PATTERN.exec(text); pattern.exec(line); child.fork(x);'), []);
});
