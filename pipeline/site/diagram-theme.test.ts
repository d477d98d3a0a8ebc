// The single-copy diagram theming: which types are drawn once, and sentinel colours → CSS variables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isThemedType, leanSvg, pruneStyle, trimSvg, SENTINEL_VARIABLES, themeSvg } from './diagram-theme.ts';

test('flowchart, sequence, class, state, er and pie are drawn once; derived-palette types twice', () => {
  for (const source of [
    'flowchart LR\n A --> B',
    'graph TD\n A',
    '%% note\nsequenceDiagram\n A->>B: hi',
    'classDiagram\n A',
    'stateDiagram-v2\n [*] --> A',
    'erDiagram\n A ||--o{ B : x',
    'pie title P\n "a": 1',
  ]) {
    assert.equal(isThemedType(source), true, source);
  }
  for (const source of [
    'gantt\n title T',
    'mindmap\n root',
    'timeline\n 2020 : a',
    'gitGraph\n commit',
    'journey\n title J',
    'quadrantChart\n title Q',
  ]) {
    assert.equal(isThemedType(source), false, source);
  }
});

test('sentinel colours become CSS variables in hex, rgb() and rgba() forms; others stay', () => {
  const svg =
    '<style>#m .node rect{fill:#000002;stroke:#000004;}#m .edgeLabel{background-color:rgba(0, 0, 1, 0.5);}#m ' +
    '.slice{fill:rgb(0, 0, 17);}#m .x{fill:#000000;stroke:#0000011}</style>';
  assert.equal(
    themeSvg(svg),
    '<style>#m .node rect{fill:var(--cg-mermaid-node);stroke:var(--cg-mermaid-border);}#m ' +
      '.edgeLabel{background-color:color-mix(in srgb, var(--cg-mermaid-bg) 50%, transparent);}#m ' +
      '.slice{fill:var(--cg-mermaid-pie1);}#m .x{fill:#000000;stroke:#0000011}</style>',
  );
});

test('every sentinel mermaid is given has a CSS variable', () => {
  for (const [name, colour] of Object.entries(SENTINEL_VARIABLES))
    assert.match(themeSvg(`fill:${colour};`), /^fill:var\(--cg-mermaid-[a-z0-9]+\);$/, name);
});

test('an SVG page copy keeps the markers it uses, and its stylesheet moves to a class named by content', () => {
  const svg = (id: string, extra = '') =>
    `<svg id="${id}" class="flowchart" viewBox="0 0 9 9"><style>#${id}{fill:red;}#${id} .node ` +
    `rect{stroke:blue;}${extra}</style><g><marker id="${id}_b"/><marker id="${id}_a" class="marker"><path ` +
    `d="M0"/></marker><marker id="${id}_a-margin"><path d="M1"/></marker></g><path marker-end="url(#${id}` +
    `_a-margin)"/><defs><filter id="${id}-shadow"><feDropShadow/></filter></defs></svg>`;
  const one = leanSvg(svg('m1'));
  const two = leanSvg(svg('m2'));
  // Only the referenced marker is left; a self-closing one is not mistaken for a container; unused filters go with their <defs>.
  assert.deepEqual(
    [...one.svg.matchAll(/<marker id="([^"]+)"/g)].map((m) => m[1]),
    ['m1_b', 'm1_a-margin'],
  );
  assert.doesNotMatch(one.svg, /<style>|<filter|<defs>/);
  // Same rules (apart from the id) → the same class; the id's specificity kept; other ids untouched.
  assert.equal(one.style?.name, two.style?.name);
  assert.match(one.svg, new RegExp(`^<svg id="m1" class="${one.style!.name} flowchart"`));
  assert.equal(
    one.style?.css,
    `:is(.${one.style!.name},#_){fill:red;}:is(.${one.style!.name},#_) .node rect{stroke:blue;}`,
  );
  const three = leanSvg(svg('m3', '#m3 .special{fill:green;}#m3_x{fill:none;}'));
  assert.notEqual(three.style?.name, one.style?.name);
  assert.match(three.style!.css, /#m3_x\{fill:none;\}$/);
  // No <style> first: nothing to split.
  assert.deepEqual(leanSvg('<svg id="x"><g/></svg>'), { svg: '<svg id="x"><g/></svg>', style: null });
});

test('a stylesheet anywhere in the SVG (a sequence diagram has it after its actors) is split off, its XML escapes undone; unused symbols go', () => {
  const svg =
    '<svg id="s1" viewBox="0 0 9 9"><g><text class="actor">A</text></g><style>#s1 ' +
    'text.actor&gt;tspan{fill:red;}</style><defs><symbol id="s1-database"><path ' +
    'd="M1"/></symbol></defs><defs><symbol id="s1-clock"><path d="M2"/></symbol></defs><use ' +
    'href="#s1-clock"/></svg>';
  const { svg: lean, style } = leanSvg(svg);
  assert.equal(style?.css, `:is(.${style!.name},#_) text.actor>tspan{fill:red;}`);
  assert.equal(
    lean,
    `<svg class="${style!.name}" id="s1" viewBox="0 0 9 9"><g><text class="actor">A</text></g><defs><symbol ` +
      'id="s1-clock"><path d="M2"/></symbol></defs><use href="#s1-clock"/></svg>',
  );
});

test(
  "what the page does not use is trimmed: mermaid's data attributes, repeated classes, empty styles, long " +
    'decimals, double-stroked rough.js outlines',
  () => {
    const edge =
      '<path d="M235.20993423461917,99L235.20993423461917,135" class="edge-thickness-normal edge-pattern-solid ' +
      'edge-thickness-normal flowchart-link" style="" data-edge="true" data-et="edge" data-id="L_a_b_0" ' +
      'data-points="W3sieCI6MjM1fV0=" data-look="neo" transform="translate(402.8417434692383, 423)"/>';
    assert.equal(
      trimSvg(edge),
      '<path d="M235.2,99L235.2,135" class="edge-thickness-normal edge-pattern-solid flowchart-link" data-look="neo" transform="translate(402.84, 423)"/>',
    );
    // Written numbers (an icon's path, the viewBox, a box's width) keep theirs.
    assert.equal(
      trimSvg(
        '<svg viewBox="4 4 506.84173583984375 756.0628662109375"><rect width="120.53125"/><path d="M12.258.001l.256.004"/></svg>',
      ),
      '<svg viewBox="4 4 506.84173583984375 756.0628662109375"><rect width="120.53125"/><path d="M12.258.001l.256.004"/></svg>',
    );
    // rough.js: a straight segment twice, then one that bends: one path, `L` for the straight one.
    const rough =
      'M-57.46389564258193 -47.11483953557113 C-56.64989239481017 -47.2464412679814, -55.835889147038415 ' +
      '-47.37804300039167, -54.426385225772364 -47.60592066351581 M-57.46389564258193 -47.11483953557113 C-56.1 ' +
      '-47.3, -55.2 -47.5, -54.426385225772364 -47.60592066351581 M-54.426385225772364 -47.60592066351581 C-50 ' +
      '-40, -45 -40, -40.000001 -47.60592066351581 M0 0 C0 0, 0 0, 0 0';
    assert.equal(trimSvg(`<path d="${rough}"/>`), '<path d="M-57.5 -47.1L-54.4 -47.6C-50 -40 -45 -40 -40 -47.6M0 0"/>');
  },
);

test("a diagram type's stylesheet keeps only the rules the course's SVGs of that type can match", () => {
  const name = 'cgm-x';
  const r = (sel: string, decl = 'fill:red;') =>
    `${sel
      .split(',')
      .map((s) => `:is(.${name},#_)${s}`)
      .join(',')}{${decl}}`;
  const css = [
    r(''),
    r(' .node rect'),
    r(' .cluster rect'),
    r(' .error-icon,  .label text'),
    r(' rect[data-look="neo"]'),
    r(' rect[data-look$=".neo"]'),
    r(' [data-missing]'),
    r(' .node:not(.cluster)'),
    '@keyframes dash{to{stroke-dashoffset:0;}}',
    r(' :is(.a,.b)'),
  ].join('');
  const svgs = [
    '<svg class="cgm-x flowchart"><g class="node"><rect data-look="neo"/></g><g class="label"><text>A</text></g></svg>',
  ];
  assert.equal(
    pruneStyle({ name, css }, svgs),
    [
      r(''),
      r(' .node rect'),
      r(' .error-icon,  .label text'),
      r(' rect[data-look="neo"]'),
      r(' rect[data-look$=".neo"]'),
      r(' .node:not(.cluster)'),
      '@keyframes dash{to{stroke-dashoffset:0;}}',
      r(' :is(.a,.b)'),
    ].join(''),
  );
});
