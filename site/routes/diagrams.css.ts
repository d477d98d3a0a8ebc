// The stylesheets of every build-time diagram of the course, each once (pipeline/site/diagram-theme.ts
// splitSvgStyle): lesson pages link this file instead of carrying each SVG's <style>.
import { getCollection } from 'astro:content';
import type { DiagramView, SegmentView } from '../lib/lessons.ts';

export async function GET(): Promise<Response> {
  const styles = new Map<string, string>();
  const isDiagram = (s: SegmentView): s is SegmentView & DiagramView => s.kind === 'diagram';
  for (const { data: page } of await getCollection('lessons')) {
    const diagrams = [...(page.readalong?.segments ?? []), ...(page.notes?.segments ?? [])].filter(isDiagram);
    for (const d of [...diagrams, ...page.diagrams]) for (const s of d.styles) styles.set(s.name, s.css);
  }
  return new Response([...styles.values()].join('\n'), { headers: { 'content-type': 'text/css; charset=utf-8' } });
}
