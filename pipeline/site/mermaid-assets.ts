// Mermaid's prebuilt browser files, copied into a site whose pages draw diagrams client-side.
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function mermaidDist(): string {
  return path.dirname(fileURLToPath(import.meta.resolve('mermaid')));
}

/** Serves mermaid's prebuilt ESM (never bundled by Vite) for pages that render diagrams client-side. */
export function copyMermaid(out: string): void {
  const target = path.join(out, '_codelabgen', 'mermaid');
  mkdirSync(path.join(target, 'chunks'), { recursive: true });
  cpSync(path.join(mermaidDist(), 'mermaid.esm.min.mjs'), path.join(target, 'mermaid.esm.min.mjs'));
  cpSync(path.join(mermaidDist(), 'chunks', 'mermaid.esm.min'), path.join(target, 'chunks', 'mermaid.esm.min'), {
    recursive: true,
  });
}
