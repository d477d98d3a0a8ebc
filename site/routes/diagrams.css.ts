// The stylesheets of every build-time diagram of the course, each once (pipeline/site/diagram-theme.ts
// splitSvgStyle): lesson pages link this file instead of carrying each SVG's <style>.
import { getCollection } from 'astro:content';
import { drawnDiagram, leafSegments } from '../lib/lessons.ts';
import { siteOptions } from '../lib/options.ts';

export async function GET(): Promise<Response> {
  const styles = new Map<string, string>();
  for (const { data: page } of await getCollection('codelabgen-lessons')) {
    const docs = [page.readalong, page.notes];
    const inDocs = docs.flatMap(leafSegments).flatMap((s) => (s.kind === 'diagram' ? [s] : []));
    const inMdx = docs.flatMap((doc) => doc?.mdx?.diagrams ?? []);
    for (const d of [...inDocs, ...inMdx, ...page.diagrams]) for (const s of (await drawnDiagram(d, siteOptions())).styles) styles.set(s.name, s.css);
  }
  return new Response([...styles.values()].join('\n'), { headers: { 'content-type': 'text/css; charset=utf-8' } });
}
