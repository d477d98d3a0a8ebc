// The single-copy diagram theming: which types are drawn once, and sentinel colours → CSS variables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isThemedType, leanSvg, SENTINEL_VARIABLES, themeSvg } from './diagram-theme.ts';

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

test('an SVG page copy keeps the markers it uses, and its stylesheet moves to a class named by content', () => {
  const svg = (id: string, extra = '') =>
    `<svg id="${id}" class="flowchart" viewBox="0 0 9 9"><style>#${id}{fill:red;}#${id} .node rect{stroke:blue;}${extra}</style><g><marker id="${id}_b"/><marker id="${id}_a" class="marker"><path d="M0"/></marker><marker id="${id}_a-margin"><path d="M1"/></marker></g><path marker-end="url(#${id}_a-margin)"/><defs><filter id="${id}-shadow"><feDropShadow/></filter></defs></svg>`;
  const one = leanSvg(svg('m1'));
  const two = leanSvg(svg('m2'));
  // Only the referenced marker is left; a self-closing one is not mistaken for a container; unused filters go with their <defs>.
  assert.deepEqual([...one.svg.matchAll(/<marker id="([^"]+)"/g)].map((m) => m[1]), ['m1_b', 'm1_a-margin']);
  assert.doesNotMatch(one.svg, /<style>|<filter|<defs>/);
  // Same rules (apart from the id) → the same class; the id's specificity kept; other ids untouched.
  assert.equal(one.style?.name, two.style?.name);
  assert.match(one.svg, new RegExp(`^<svg id="m1" class="${one.style!.name} flowchart"`));
  assert.equal(one.style?.css, `:is(.${one.style!.name},#_){fill:red;}:is(.${one.style!.name},#_) .node rect{stroke:blue;}`);
  const three = leanSvg(svg('m3', '#m3 .special{fill:green;}#m3_x{fill:none;}'));
  assert.notEqual(three.style?.name, one.style?.name);
  assert.match(three.style!.css, /#m3_x\{fill:none;\}$/);
  // No <style> first: nothing to split.
  assert.deepEqual(leanSvg('<svg id="x"><g/></svg>'), { svg: '<svg id="x"><g/></svg>', style: null });
});
