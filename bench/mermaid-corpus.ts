// Renders a folder of .mmd files (default: /work/shared/fixtures/mermaid-docs) through the site's
// build-time renderer in one batch and prints, per diagram type, how many rendered, failed or fell
// back to the client. Usage: node bench/mermaid-corpus.ts [DIR] [--keep CACHE_DIR] (keeps the cache
// there, e.g. to compare two renderers' SVGs file by file).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findChromium, readCachedDiagram, renderDiagrams } from '../pipeline/site/diagrams.ts';
import { diagramHash } from '../pipeline/site/segments.ts';

const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? args.splice(keepAt, 2)[1] : undefined;
const dir = args[0] ?? '/work/shared/fixtures/mermaid-docs';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mmd'))
  .sort();
const diagrams = files.map((f) => {
  const source = readFileSync(path.join(dir, f), 'utf8');
  return { hash: diagramHash(source), source, label: f, title: f, lesson: 'corpus' };
});
const cache = keep
  ? (mkdirSync(keep, { recursive: true }), keep)
  : mkdtempSync(path.join(os.tmpdir(), 'codelabgen-corpus-'));
const started = Date.now();
const stats = await renderDiagrams(diagrams, cache, findChromium());
console.log(`${files.length} diagrams in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(stats)}`);
const byType = new Map<string, { ok: number; failed: string[]; client: string[] }>();
for (const d of diagrams) {
  const type = d.label.replace(/-[0-9]+\.mmd$/, '');
  const row = byType.get(type) ?? { ok: 0, failed: [], client: [] };
  const cached = readCachedDiagram(cache, d.hash);
  if (cached === null) row.client.push(d.label);
  else if (cached.error !== null) row.failed.push(`${d.label}: ${cached.error.slice(0, 90)}`);
  else row.ok++;
  byType.set(type, row);
}
for (const [type, row] of byType)
  console.log(
    `${type.padEnd(28)} ${row.ok} ok${row.failed.length ? `, ${row.failed.length} failed` : ''}` +
      `${row.client.length ? `, ${row.client.length} client-side` : ''}` +
      `${row.failed.length ? `\n    ${row.failed.join('\n    ')}` : ''}`,
  );
if (!keep) rmSync(cache, { recursive: true, force: true });
