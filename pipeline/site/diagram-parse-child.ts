// The diagram parser's own process (pipeline/site/diagram-parse.ts starts it): reads
// `{ sources: string[], compileCache?: string }` as JSON on stdin, parses each with mermaid (no drawing, no browser) and
// writes `{ results: (string | null)[] }` (mermaid's message, or null when it parses) or
// `{ unavailable: string }` on stdout. A process of its own: mermaid's sanitizer needs a DOM, and
// the jsdom window it gets here never becomes a global of the CLI or the MCP server.
import { readFileSync } from 'node:fs';
import module from 'node:module';

interface Mermaid {
  parse(text: string): Promise<unknown>;
  initialize(config: object): void;
}

async function loadMermaid(): Promise<Mermaid> {
  const { JSDOM } = await import('jsdom');
  const { window } = new JSDOM('');
  Object.assign(globalThis, { window, document: window.document });
  const mermaid = ((await import('mermaid')) as { default: Mermaid }).default;
  mermaid.initialize({ startOnLoad: false });
  return mermaid;
}

const input = JSON.parse(readFileSync(0, 'utf8')) as { sources: string[]; compileCache?: string };
// V8's compiled code of mermaid and jsdom kept in the user's own diagram cache: later parses load faster.
if (input.compileCache) module.enableCompileCache?.(input.compileCache);
let mermaid: Mermaid;
try {
  mermaid = await loadMermaid();
} catch (error) {
  process.stdout.write(JSON.stringify({ unavailable: `mermaid could not be loaded (${(error as Error).message})` }));
  process.exit(0);
}
const results: Array<string | null> = [];
for (const source of input.sources) {
  try {
    await mermaid.parse(source);
    results.push(null);
  } catch (error) {
    results.push(String((error as Error)?.message ?? error));
  }
}
process.stdout.write(JSON.stringify({ results }));
process.exit(0);
