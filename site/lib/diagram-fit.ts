// How a diagram sits in the page (Diagram.astro): never narrower than what keeps its labels at 14 px
// (wider diagrams scroll sideways inside the figure, and a button opens them full size), and its
// accessible name. Pure; reads the SVG text the build drew.

/** Smallest label size a diagram may show in the page, in px. */
export const MIN_LABEL_PX = 14;

/** The width of the SVG's viewBox, null without one. */
function viewBoxWidth(svg: string): number | null {
  const box = /<svg\b[^>]*\sviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+[\d.]+\s*"/.exec(svg);
  return box ? Number(box[1]) : null;
}

/**
 * The font size mermaid drew the labels with: the root rule of the diagram's stylesheet (its class,
 * `:is(.cgm-x,#_){...font-size:16px}`, or the `#id{...}` rule of an SVG that kept its own style), else 16.
 */
export function labelPx(svg: string, styles: Array<{ name: string; css: string }>): number {
  const own = /\sclass="([^"]*)"/.exec(/<svg\b[^>]*>/.exec(svg)?.[0] ?? '')?.[1]?.split(/\s+/) ?? [];
  const css =
    styles
      .filter((s) => own.includes(s.name))
      .map((s) => s.css)
      .join('\n') + (/<style>([\s\S]*?)<\/style>/.exec(svg)?.[1] ?? '');
  const root = /^[^{]*\{[^}]*?font-size:\s*([\d.]+)px/.exec(css.trim());
  const px = root ? Number(root[1]) : 16;
  return px > 0 ? px : 16;
}

/** The narrowest the SVG may be shown (px) so that its labels stay at MIN_LABEL_PX; null when unknown. */
export function minDiagramWidth(svg: string, styles: Array<{ name: string; css: string }>): number | null {
  const width = viewBoxWidth(svg);
  return width === null ? null : Math.ceil((width * MIN_LABEL_PX) / labelPx(svg, styles));
}

function decode(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The first node labels of a drawn SVG (flowchart-like foreignObject labels, else SVG text). */
function svgLabels(svg: string): string[] {
  const html = [...svg.matchAll(/class="nodeLabel"[^>]*>([\s\S]*?)<\/span>/g)].map((m) => decode(m[1]!));
  return html.length > 0 ? html : [...svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)].map((m) => decode(m[1]!));
}

/** Node labels written in mermaid source: `a[Label]`, `b(Label)`, `c{Label}`, `participant X`. */
function sourceLabels(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\w\s*(?:\[\[?|\(\(?|\{\{?|>)"?([^"\]\)\}\n]+?)"?(?:\]\]?|\)\)?|\}\}?)/g))
    found.push(m[1]!.trim());
  for (const m of source.matchAll(/^\s*(?:participant|actor)\s+(?:\S+\s+as\s+)?(.+)$/gm)) found.push(m[1]!.trim());
  return found;
}

/**
 * A diagram's accessible name: its `%% title` (`declared`), else the caption the page shows, else
 * "Diagram: " and its first three node labels (from the drawn SVG, else from the source).
 */
export function diagramName(
  declared: string | null,
  caption: string | null,
  source: string,
  svg: string | null,
): string {
  if (declared) return declared;
  if (caption) return caption;
  const labels = [...new Set([...(svg ? svgLabels(svg) : []), ...sourceLabels(source)].filter((l) => l !== ''))].slice(
    0,
    3,
  );
  return labels.length > 0 ? `Diagram: ${labels.join(', ')}` : 'Diagram';
}
