// The start-up budget in the built dist/: the state commands' chunks and all they import statically
// hold no zod or zod schema (zod loads only when a file fails its generated validator), and
// `state log`'s no js-yaml. esbuild names each bundled source in a `// path` comment.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** The chunk file `name` and every chunk it imports statically, transitively. */
function staticClosure(file: string): Map<string, string> {
  const seen = new Map<string, string>();
  const todo = [file];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if (seen.has(next)) continue;
    const text = readFileSync(next, 'utf8');
    seen.set(next, text);
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s*"(\.\/[^"]+)"/gms)) todo.push(path.join(path.dirname(next), match[1]!));
  }
  return seen;
}

/** Sources bundled into `text`, from esbuild's `// path/to/source.ts` comments. */
function sources(text: string): string[] {
  return [...text.matchAll(/^\/\/ ((?:node_modules|content-schemas|pipeline|cli)\/\S+)$/gm)].map((match) => match[1]!);
}

const ZOD_FREE_SCHEMA_FILES = new Set(['content-schemas/errors.ts', 'content-schemas/fast.ts', 'content-schemas/lazy-load.ts', 'content-schemas/names.ts', 'content-schemas/parse.ts', 'content-schemas/validators.generated.ts']);

for (const command of ['state-show', 'state-next', 'state-log', 'state-set']) {
  test(`${command.replace('-', ' ')} loads no zod: its chunks import only the generated validators`, () => {
    // The command table may sit in main.mjs or in a chunk it imports statically.
    const loader = new RegExp(`import\\("\\./((?:chunks/)?${command}-[A-Z0-9]+\\.mjs)"\\)`);
    const chunk = [...staticClosure(path.join(DIST, 'main.mjs'))].flatMap(([file, text]) => {
      const found = loader.exec(text)?.[1];
      return found === undefined ? [] : [path.join(path.dirname(file), found)];
    })[0];
    assert.ok(chunk, `dist/main.mjs loads no ${command} chunk: run node scripts/build.mjs`);
    const bundled = [...staticClosure(chunk).values()].flatMap(sources);
    assert.ok(bundled.includes('content-schemas/validators.generated.ts'), 'the generated validators are on the path');
    const heavy = bundled.filter((source) => source.startsWith('node_modules/zod/') || (source.startsWith('content-schemas/') && !ZOD_FREE_SCHEMA_FILES.has(source)));
    assert.deepEqual(heavy, [], `${command} pulls zod into its start-up`);
    if (command === 'state-log') assert.deepEqual(bundled.filter((source) => source.startsWith('node_modules/js-yaml/')), [], 'state log reads no YAML: js-yaml stays out of its start-up');
  });
}

test('the MCP SDK loads only in the mcp command: main.mjs and the state commands hold none of it', () => {
  const main = [...staticClosure(path.join(DIST, 'main.mjs'))];
  const sdk = (texts: string[]) => texts.flatMap(sources).filter((source) => source.startsWith('node_modules/@modelcontextprotocol/'));
  assert.deepEqual(sdk(main.map(([, text]) => text)), [], 'main.mjs pulls the MCP SDK into every start-up');
  const chunks = main.flatMap(([file, text]) => [...text.matchAll(/import\("\.\/((?:chunks\/)?[a-z-]+-[A-Z0-9]+\.mjs)"\)/g)].map((match) => path.join(path.dirname(file), match[1]!)));
  const mcp = chunks.filter((chunk) => /\/mcp-[A-Z0-9]+\.mjs$/.test(chunk));
  assert.equal(mcp.length, 1, 'one mcp command chunk');
  assert.ok(sdk([...staticClosure(mcp[0]!).values()]).length > 0, 'the mcp chunk bundles the SDK (this test can see it)');
  const stateChunks = chunks.filter((file) => /\/state-[a-z-]+-[A-Z0-9]+\.mjs$/.test(file));
  assert.ok(stateChunks.length >= 8, `state command chunks found: ${stateChunks.length}`);
  for (const chunk of stateChunks) {
    assert.deepEqual(sdk([...staticClosure(chunk).values()]), [], `${path.basename(chunk)} pulls in the MCP SDK`);
  }
});
