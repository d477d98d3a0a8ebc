// The sidebar's lessons by module ({ "2": [[id, title, href], ...] }), fetched by site/client/page.js
// when a reader opens a module that a lesson page does not list inline.
import { courseEntry } from '../lib/collections-named.ts';
import { plainTitle } from '../lib/inline.ts';
import { sidebarModules } from '../lib/sidebar.ts';
import { href } from '../lib/url.ts';

export async function GET(): Promise<Response> {
  const course = await courseEntry();
  const modules = sidebarModules(course?.data, href(''));
  const body = Object.fromEntries(
    modules.map((m) => [m.id, m.lessons.map((l) => [l.id, plainTitle(l.title), l.href])]),
  );
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}
