// One SVG per diagram for the types whose colours all come from mermaid's theme variables: drawn
// once with sentinel colours (mermaid accepts only hex), which are then swapped for CSS variables
// that site.css sets per light/dark theme. Other types (their palettes are derived by mermaid from
// the variables: gantt, mindmap, timeline, gitGraph, journey, quadrant, ...) keep two copies.

/** Diagram types drawn once and themed by CSS variables. */
const THEMED = /^\s*(?:%%.*\n\s*)*(flowchart|graph|sequenceDiagram|classDiagram|stateDiagram|erDiagram|pie)\b/;

export function isThemedType(source: string): boolean {
  return THEMED.test(source);
}

/** CSS variable per sentinel colour (the sentinels never occur in mermaid's own styles). */
const VARIABLES: Record<string, string> = {
  '#000001': '--cg-mermaid-bg',
  '#000002': '--cg-mermaid-node',
  '#000003': '--cg-mermaid-text',
  '#000004': '--cg-mermaid-border',
  '#000005': '--cg-mermaid-secondary',
  '#000006': '--cg-mermaid-tertiary',
  '#000007': '--cg-mermaid-line',
  '#000008': '--cg-mermaid-note',
  '#000011': '--cg-mermaid-pie1',
  '#000012': '--cg-mermaid-pie2',
  '#000013': '--cg-mermaid-pie3',
  '#000014': '--cg-mermaid-pie4',
  '#000015': '--cg-mermaid-pie5',
  '#000016': '--cg-mermaid-pie6',
  '#000017': '--cg-mermaid-pie7',
  '#000018': '--cg-mermaid-pie8',
};
const [BG, NODE, TEXT, BORDER, SECONDARY, TERTIARY, LINE, NOTE] = Object.keys(VARIABLES) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];

/** mermaid `base` theme variables, every one a sentinel. */
export const SENTINEL_VARIABLES: Record<string, string> = {
  background: BG,
  primaryColor: NODE,
  primaryTextColor: TEXT,
  primaryBorderColor: BORDER,
  secondaryColor: SECONDARY,
  secondaryTextColor: TEXT,
  secondaryBorderColor: BORDER,
  tertiaryColor: TERTIARY,
  tertiaryTextColor: TEXT,
  tertiaryBorderColor: BORDER,
  lineColor: LINE,
  textColor: TEXT,
  mainBkg: NODE,
  nodeBorder: BORDER,
  clusterBkg: TERTIARY,
  clusterBorder: BORDER,
  titleColor: TEXT,
  edgeLabelBackground: BG,
  noteBkgColor: NOTE,
  noteTextColor: TEXT,
  noteBorderColor: BORDER,
  actorBkg: NODE,
  actorBorder: BORDER,
  actorTextColor: TEXT,
  actorLineColor: LINE,
  signalColor: LINE,
  signalTextColor: TEXT,
  labelBoxBkgColor: NODE,
  labelBoxBorderColor: BORDER,
  labelTextColor: TEXT,
  loopTextColor: TEXT,
  activationBkgColor: TERTIARY,
  activationBorderColor: BORDER,
  sequenceNumberColor: BG,
  nodeTextColor: TEXT,
  defaultLinkColor: LINE,
  arrowheadColor: LINE,
  errorBkgColor: NOTE,
  errorTextColor: TEXT,
  attributeBackgroundColorOdd: BG,
  attributeBackgroundColorEven: TERTIARY,
  stateBkg: NODE,
  stateLabelColor: TEXT,
  compositeBackground: BG,
  compositeTitleBackground: NODE,
  altBackground: TERTIARY,
  transitionColor: LINE,
  transitionLabelColor: TEXT,
  specialStateColor: LINE,
  innerEndBackground: BORDER,
  labelColor: TEXT,
  labelBackgroundColor: BG,
  pieTitleTextColor: TEXT,
  pieSectionTextColor: TEXT,
  pieLegendTextColor: TEXT,
  pieStrokeColor: BORDER,
  pieOuterStrokeColor: BORDER,
  ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`pie${n}`, `#0000${10 + n}`])),
};

/** Swaps the sentinels (as hex, rgb() or rgba()) for CSS variables. */
export function themeSvg(svg: string): string {
  return svg
    .replace(/#0000(0[1-8]|1[1-8])\b/gi, (hex) => `var(${VARIABLES[hex.toLowerCase()]})`)
    .replace(
      /rgba?\(\s*0\s*,\s*0\s*,\s*(\d+)\s*(?:,\s*([\d.]+)\s*)?\)/g,
      (match, blue: string, alpha: string | undefined) => {
        const variable = VARIABLES[`#0000${Number(blue).toString(16).padStart(2, '0')}`];
        if (!variable) return match;
        return alpha === undefined
          ? `var(${variable})`
          : `color-mix(in srgb, var(${variable}) ${Math.round(Number(alpha) * 100)}%, transparent)`;
      },
    );
}

const XML_ENTITIES: Record<string, string> = { gt: '>', lt: '<', amp: '&', quot: '"', apos: "'" };

export interface DiagramStyle {
  /** The class the SVG carries instead of its own `<style>`. */
  name: string;
  css: string;
}

/**
 * Moves an SVG's own stylesheet (mermaid scopes every rule to the SVG's id, about 6 KB a diagram)
 * out of the page: the rules are scoped to a class named by their content instead, so diagrams of
 * one type share them, and the course's styles are served as one file (site/routes/diagrams.css.ts).
 * `:is(.name, #_)` keeps the id's specificity, so the rules win over the page's as they did inline.
 */
export function splitSvgStyle(svg: string): { svg: string; style: DiagramStyle | null } {
  const open = /^<svg\b[^>]*>/.exec(svg);
  const id = open ? /\sid="([^"]+)"/.exec(open[0])?.[1] : undefined;
  // Mostly the SVG's first child; a sequence diagram has it after its actors.
  const start = open ? svg.indexOf('<style>', open[0].length) : -1;
  if (!open || id === undefined || start < 0) return { svg, style: null };
  const end = svg.indexOf('</style>', start);
  if (end < 0) return { svg, style: null };
  // The SVG was serialized as XML: its stylesheet's `>` (child combinators) is `&gt;`, which a CSS file would keep.
  const own = svg
    .slice(start + '<style>'.length, end)
    .replace(/&(gt|lt|amp|quot|apos);/g, (_, e: string) => XML_ENTITIES[e]!);
  const scoped = own.replace(new RegExp(`#${id.replace(/[^\w-]/g, '\\$&')}(?![\\w-])`, 'g'), '\u0000');
  const name = `cgm-${fnv(scoped)}`;
  const css = scoped.replaceAll('\u0000', `:is(.${name},#_)`);
  const tag = /\sclass="/.test(open[0])
    ? open[0].replace(/\sclass="/, ` class="${name} `)
    : open[0].replace(/^<svg\b/, `<svg class="${name}"`);
  return { svg: tag + svg.slice(open[0].length, start) + svg.slice(end + '</style>'.length), style: { name, css } };
}

/**
 * Drops the arrowhead markers, filters and symbols nothing in the SVG points at (mermaid defines twelve
 * markers per flowchart, about 4 KB, whichever arrows it draws, and a sequence diagram three icons,
 * 6 KB). Unreferenced definitions draw nothing.
 */
export function pruneSvgDefs(svg: string): string {
  const pruned = svg.replace(
    /<(marker|filter|symbol)\b[^>]*\sid="([^"]+)"[^>]*(?<!\/)>[\s\S]*?<\/\1>/g,
    (element, _tag: string, id: string) => {
      const used = new RegExp(`#${id.replace(/[^\w-]/g, '\\$&')}(?![\\w-])`).test(svg);
      return used ? element : '';
    },
  );
  return pruned.replace(/<defs><\/defs>/g, '');
}

/** `45.57812500000003` → `45.6` (or to `places`): a number mermaid computed, rounded; a written one (`12.258`) stays. */
function roundComputed(text: string, places: number): string {
  return text.replace(/-?\d+\.\d{4,}(?:e-?\d+)?/g, (n) => String(Number(Number(n).toFixed(places))));
}

const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?/g;

/** `45.6`, `-3`: a coordinate to a tenth, without a trailing `.0`. */
function tenth(n: number): string {
  return String(Math.round(n * 10) / 10 || 0);
}

/** How far point `p` is from the line through `a` and `b`. */
function offLine(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0],
    dy = b[1] - a[1],
    length = Math.hypot(dx, dy);
  return length === 0
    ? Math.hypot(p[0] - a[0], p[1] - a[1])
    : Math.abs(dx * (a[1] - p[1]) - dy * (a[0] - p[0])) / length;
}

/**
 * Shape outlines drawn by rough.js (mermaid's newer node shapes, even unsketched) are one subpath
 * `M a C c1 c2 b` per segment, each segment twice, and the control points of a straight segment lie
 * on it. They become one path: a segment drawn again is dropped, a `M` where the last segment ended
 * too, and a straight one is an `L` (control points within a quarter of a unit of the line). Other
 * paths are returned as they are.
 */
function roughOutline(d: string): string {
  if (!/^(?:\s*M[^A-Za-z]+C[^A-Za-z]+)+$/.test(d)) return d;
  const out: string[] = [];
  let end: [number, number] | null = null;
  let last = '';
  for (const sub of d.split(/(?=M)/)) {
    const n = (sub.match(NUMBER) ?? []).map(Number);
    if (n.length !== 8) return d;
    const a: [number, number] = [n[0]!, n[1]!],
      c1: [number, number] = [n[2]!, n[3]!],
      c2: [number, number] = [n[4]!, n[5]!],
      b: [number, number] = [n[6]!, n[7]!];
    const ends = `${a} ${b}`;
    if (ends === last) continue; // the same segment stroked again
    last = ends;
    if (end === null || end[0] !== a[0] || end[1] !== a[1]) out.push(`M${tenth(a[0])} ${tenth(a[1])}`);
    end = b;
    if (offLine(c1, a, b) === 0 && offLine(c2, a, b) === 0 && a[0] === b[0] && a[1] === b[1]) continue; // a point
    if (offLine(c1, a, b) <= 0.25 && offLine(c2, a, b) <= 0.25) out.push(`L${tenth(b[0])} ${tenth(b[1])}`);
    else out.push(`C${n.slice(2).map(tenth).join(' ')}`);
  }
  return out.join('');
}

/** Classes a class list names twice (`edge-thickness-normal edge-pattern-solid edge-thickness-normal …`), once. */
function uniqueClasses(list: string): string {
  return [...new Set(list.split(/\s+/).filter((c) => c !== ''))].join(' ');
}

/**
 * What mermaid leaves in an SVG that the page does not use: the points of each edge again as base64
 * JSON and its own ids (`data-points`, `data-id`, `data-et`, `data-edge`: for mermaid's scripts; no
 * rule of its stylesheet selects them, `data-look` is kept since its rules do), empty `style`
 * attributes, repeated classes, rough.js outlines (below), and layout numbers to 14 decimals
 * (rounded to a tenth of a unit in paths, a hundredth in transforms: under a pixel at any size the
 * page shows, and the full-size dialog shows the natural size). Text, boxes and labels keep their numbers.
 */
export function trimSvg(svg: string): string {
  return svg
    .replace(/\s(?:data-points|data-id|data-et|data-edge)="[^"]*"|\sstyle=""/g, '')
    .replace(/\sclass="([^"]*)"/g, (_, list: string) => ` class="${uniqueClasses(list)}"`)
    .replace(/\sd="([^"]*)"/g, (_, d: string) => ` d="${roundComputed(roughOutline(d), 1)}"`)
    .replace(/\spoints="([^"]*)"/g, (_, p: string) => ` points="${roundComputed(p, 1)}"`)
    .replace(/\stransform="([^"]*)"/g, (_, t: string) => ` transform="${roundComputed(t, 2)}"`);
}

/** What a page carries of a cached SVG: unused definitions pruned, what the page does not use trimmed, its stylesheet split off. */
export function leanSvg(svg: string): { svg: string; style: DiagramStyle | null } {
  return splitSvgStyle(trimSvg(pruneSvgDefs(svg)));
}

/** FNV-1a, 32 bits, base 36: short stable names. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** The top-level rules of a stylesheet (an @-rule with its block is one). */
function cssRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return rules;
}

/**
 * A diagram type's stylesheet (split off by splitSvgStyle, `name` its class) without the rules no
 * element of the SVGs that use it can match: mermaid's stylesheet for a type covers every feature
 * of it (clusters, error icons, thick and dashed edges, notes ...), about two thirds of its rules
 * are for elements a course's diagrams do not have. A rule stays when one of its selectors names
 * only classes and attributes that occur in `svgs`; @-rules and selectors with :is(), :where() or
 * :has() of their own stay; a class inside :not() does not count.
 */
export function pruneStyle(style: DiagramStyle, svgs: string[]): string {
  const classes = new Set<string>();
  const attributes = new Set<string>();
  for (const svg of svgs) {
    for (const m of svg.matchAll(/\s([\w:-]+)="([^"]*)"/g)) {
      attributes.add(m[1]!);
      if (m[1] === 'class') for (const c of m[2]!.split(/\s+/)) classes.add(c);
    }
  }
  const own = `:is(.${style.name},#_)`;
  const possible = (selector: string) => {
    const rest = selector.replaceAll(own, '').replace(/:not\([^)]*\)/g, '');
    if (/:(?:is|where|has)\(/.test(rest)) return true;
    const named = rest.replace(/\[[^\]]*\]/g, '[]'); // a `.` in an attribute's value is no class
    return (
      [...named.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].every((m) => classes.has(m[1]!)) &&
      [...rest.matchAll(/\[([\w:-]+)/g)].every((m) => attributes.has(m[1]!))
    );
  };
  return cssRules(style.css)
    .filter(
      (rule) =>
        rule.startsWith('@') ||
        rule
          .slice(0, rule.indexOf('{'))
          .split(/,(?![^(]*\))/)
          .some(possible),
    )
    .join('');
}
