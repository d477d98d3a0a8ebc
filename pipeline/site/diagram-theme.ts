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
const [BG, NODE, TEXT, BORDER, SECONDARY, TERTIARY, LINE, NOTE] = Object.keys(VARIABLES) as [string, string, string, string, string, string, string, string];

/** mermaid `base` theme variables, every one a sentinel. */
export const SENTINEL_VARIABLES: Record<string, string> = {
  background: BG, primaryColor: NODE, primaryTextColor: TEXT, primaryBorderColor: BORDER,
  secondaryColor: SECONDARY, secondaryTextColor: TEXT, secondaryBorderColor: BORDER,
  tertiaryColor: TERTIARY, tertiaryTextColor: TEXT, tertiaryBorderColor: BORDER,
  lineColor: LINE, textColor: TEXT, mainBkg: NODE, nodeBorder: BORDER, clusterBkg: TERTIARY, clusterBorder: BORDER,
  titleColor: TEXT, edgeLabelBackground: BG, noteBkgColor: NOTE, noteTextColor: TEXT, noteBorderColor: BORDER,
  actorBkg: NODE, actorBorder: BORDER, actorTextColor: TEXT, actorLineColor: LINE, signalColor: LINE, signalTextColor: TEXT,
  labelBoxBkgColor: NODE, labelBoxBorderColor: BORDER, labelTextColor: TEXT, loopTextColor: TEXT,
  activationBkgColor: TERTIARY, activationBorderColor: BORDER, sequenceNumberColor: BG,
  nodeTextColor: TEXT, defaultLinkColor: LINE, arrowheadColor: LINE, errorBkgColor: NOTE, errorTextColor: TEXT,
  attributeBackgroundColorOdd: BG, attributeBackgroundColorEven: TERTIARY,
  stateBkg: NODE, stateLabelColor: TEXT, compositeBackground: BG, compositeTitleBackground: NODE, altBackground: TERTIARY,
  transitionColor: LINE, transitionLabelColor: TEXT, specialStateColor: LINE, innerEndBackground: BORDER, labelColor: TEXT, labelBackgroundColor: BG,
  pieTitleTextColor: TEXT, pieSectionTextColor: TEXT, pieLegendTextColor: TEXT, pieStrokeColor: BORDER, pieOuterStrokeColor: BORDER,
  ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((n) => [`pie${n}`, `#0000${10 + n}`])),
};

/** Swaps the sentinels (as hex, rgb() or rgba()) for CSS variables. */
export function themeSvg(svg: string): string {
  return svg
    .replace(/#0000(0[1-8]|1[1-8])\b/gi, (hex) => `var(${VARIABLES[hex.toLowerCase()]})`)
    .replace(/rgba?\(\s*0\s*,\s*0\s*,\s*(\d+)\s*(?:,\s*([\d.]+)\s*)?\)/g, (match, blue: string, alpha: string | undefined) => {
      const variable = VARIABLES[`#0000${Number(blue).toString(16).padStart(2, '0')}`];
      if (!variable) return match;
      return alpha === undefined ? `var(${variable})` : `color-mix(in srgb, var(${variable}) ${Math.round(Number(alpha) * 100)}%, transparent)`;
    });
}

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
  if (!open || id === undefined || !svg.startsWith('<style>', open[0].length)) return { svg, style: null };
  const end = svg.indexOf('</style>', open[0].length);
  if (end < 0) return { svg, style: null };
  const own = svg.slice(open[0].length + '<style>'.length, end);
  const scoped = own.replace(new RegExp(`#${id.replace(/[^\w-]/g, '\\$&')}(?![\\w-])`, 'g'), '\u0000');
  const name = `cgm-${fnv(scoped)}`;
  const css = scoped.replaceAll('\u0000', `:is(.${name},#_)`);
  const tag = /\sclass="/.test(open[0]) ? open[0].replace(/\sclass="/, ` class="${name} `) : open[0].replace(/^<svg\b/, `<svg class="${name}"`);
  return { svg: tag + svg.slice(end + '</style>'.length), style: { name, css } };
}

/**
 * Drops the arrowhead markers and filters nothing in the SVG points at (mermaid defines twelve
 * markers per flowchart, about 4 KB, whichever arrows it draws). Unreferenced definitions draw nothing.
 */
export function pruneSvgDefs(svg: string): string {
  const pruned = svg.replace(/<(marker|filter)\b[^>]*\sid="([^"]+)"[^>]*(?<!\/)>[\s\S]*?<\/\1>/g, (element, _tag: string, id: string) => {
    const used = new RegExp(`#${id.replace(/[^\w-]/g, '\\$&')}(?![\\w-])`).test(svg);
    return used ? element : '';
  });
  return pruned.replace(/<defs><\/defs>/g, '');
}

/** What a page carries of a cached SVG: unused definitions pruned, its stylesheet split off. */
export function leanSvg(svg: string): { svg: string; style: DiagramStyle | null } {
  return splitSvgStyle(pruneSvgDefs(svg));
}

/** FNV-1a, 32 bits, base 36: short stable names. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
