// The stylesheets of every build-time diagram of the course, each once (pipeline/site/diagram-theme.ts
// splitSvgStyle): lesson pages link this file instead of carrying each SVG's <style>. Each keeps only
// the rules the course's diagrams of its type can match (pruneStyle).
import { pruneStyle, type DiagramStyle } from '../../pipeline/read/index.ts';
import { lessonEntries } from '../lib/collections-named.ts';
import { docsInOrder, drawnDiagram, leafSegments } from '../lib/lessons.ts';
import { siteOptions } from '../lib/options.ts';

export async function GET(): Promise<Response> {
  const styles = new Map<string, { style: DiagramStyle; svgs: string[] }>();
  for (const { data: page } of await lessonEntries()) {
    const docs = docsInOrder(page);
    const inDocs = docs.flatMap(leafSegments).flatMap((s) => (s.kind === 'diagram' ? [s] : []));
    const inMdx = docs.flatMap((doc) => doc?.mdx?.diagrams ?? []);
    for (const d of [...inDocs, ...inMdx, ...page.diagrams]) {
      const drawn = await drawnDiagram(d, siteOptions());
      for (const style of drawn.styles) {
        const entry = styles.get(style.name) ?? { style, svgs: [] };
        styles.set(style.name, entry);
        // The SVGs that carry this style's class (a light and dark pair has one each).
        for (const svg of [drawn.svg, drawn.light, drawn.dark])
          if (svg && (/^<svg\b[^>]*\sclass="([^"]*)"/.exec(svg)?.[1] ?? '').split(/\s+/).includes(style.name))
            entry.svgs.push(svg);
      }
    }
  }
  return new Response([...styles.values()].map((s) => pruneStyle(s.style, s.svgs)).join('\n'), {
    headers: { 'content-type': 'text/css; charset=utf-8' },
  });
}
