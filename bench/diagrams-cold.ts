// "N diagrams rendered cold": the site build's diagram step alone (pipeline/site/diagrams.ts) on an
// empty cache, in a fresh process (the renderer's imports, one Chromium, mermaid loaded per page).
// `flow`: the generated course's flowcharts (bench/generate-course.ts); `mixed`: ten diagram types,
// four of them drawn twice (light and dark). Usage: node bench/diagrams-cold.ts flow|mixed [N]
// Prints one JSON line: { kind, diagrams, ms, stats }.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, renderDiagrams } from '../pipeline/site/diagrams.ts';
import { diagramHash } from '../pipeline/site/segments.ts';

const MIXED = [
  (i: number) => `flowchart TD\n  A${i}[Start] --> B{Choice ${i}}\n  B -->|yes| C[Do]\n  B -->|no| D[Skip]\n`,
  (i: number) => `sequenceDiagram\n  Alice->>Bob: hello ${i}\n  Bob-->>Alice: hi\n`,
  (i: number) => `classDiagram\n  class A${i} {\n    +int x\n    +run()\n  }\n  A${i} <|-- B\n`,
  (i: number) => `stateDiagram-v2\n  [*] --> S${i}\n  S${i} --> T\n  T --> [*]\n`,
  (i: number) => `erDiagram\n  CUSTOMER${i} ||--o{ ORDER : places\n`,
  (i: number) => `pie title Share ${i}\n  "a": ${i + 1}\n  "b": 3\n`,
  (i: number) => `gantt\n  title Plan ${i}\n  dateFormat YYYY-MM-DD\n  section S\n  Task :a1, 2026-01-01, 3d\n`,
  (i: number) => `mindmap\n  root((Root ${i}))\n    A\n    B\n`,
  (i: number) => `timeline\n  title Years ${i}\n  2025 : a\n  2026 : b\n`,
  (i: number) => `journey\n  title Day ${i}\n  section Morning\n    Coffee: 5: Me\n`,
];

export function diagramSources(kind: 'flow' | 'mixed', n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    kind === 'flow'
      ? `%% title: Flow of lesson ${i + 1}\nflowchart LR\n  A${i}[Read ${i + 1}] --> B${i}[Transform] --> C${i}[Write]\n`
      : MIXED[i % MIXED.length]!(i),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kind = process.argv[2] === 'mixed' ? 'mixed' : 'flow';
  const n = Number(process.argv[3] ?? 50);
  const diagrams = diagramSources(kind, n).map((source, i) => ({
    hash: diagramHash(source),
    source,
    label: `d${i}.mmd`,
    title: `d${i}`,
    lesson: 'bench',
  }));
  const cache = mkdtempSync(path.join(os.tmpdir(), 'codelabgen-diagrams-cold-'));
  try {
    const started = performance.now();
    const stats = await renderDiagrams(diagrams, cache, findChromium());
    process.stdout.write(
      `${JSON.stringify({ kind, diagrams: n, ms: Math.round(performance.now() - started), stats })}\n`,
    );
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
