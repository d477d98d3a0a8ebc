// The single-copy diagram theming: which types are drawn once, and sentinel colours → CSS variables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isThemedType, SENTINEL_VARIABLES, themeSvg } from './diagram-theme.ts';

test('flowchart, sequence, class, state, er and pie are drawn once; derived-palette types twice', () => {
  for (const source of ['flowchart LR\n A --> B', 'graph TD\n A', '%% note\nsequenceDiagram\n A->>B: hi', 'classDiagram\n A', 'stateDiagram-v2\n [*] --> A', 'erDiagram\n A ||--o{ B : x', 'pie title P\n "a": 1']) {
    assert.equal(isThemedType(source), true, source);
  }
  for (const source of ['gantt\n title T', 'mindmap\n root', 'timeline\n 2020 : a', 'gitGraph\n commit', 'journey\n title J', 'quadrantChart\n title Q']) {
    assert.equal(isThemedType(source), false, source);
  }
});

test('sentinel colours become CSS variables in hex, rgb() and rgba() forms; others stay', () => {
  const svg = '<style>#m .node rect{fill:#000002;stroke:#000004;}#m .edgeLabel{background-color:rgba(0, 0, 1, 0.5);}#m .slice{fill:rgb(0, 0, 17);}#m .x{fill:#000000;stroke:#0000011}</style>';
  assert.equal(
    themeSvg(svg),
    '<style>#m .node rect{fill:var(--cg-mermaid-node);stroke:var(--cg-mermaid-border);}#m .edgeLabel{background-color:color-mix(in srgb, var(--cg-mermaid-bg) 50%, transparent);}#m .slice{fill:var(--cg-mermaid-pie1);}#m .x{fill:#000000;stroke:#0000011}</style>',
  );
});

test('every sentinel mermaid is given has a CSS variable', () => {
  for (const [name, colour] of Object.entries(SENTINEL_VARIABLES)) assert.match(themeSvg(`fill:${colour};`), /^fill:var\(--cg-mermaid-[a-z0-9]+\);$/, name);
});
