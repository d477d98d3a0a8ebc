// Links that stay correct under any base (e.g. /my-course/ on GitHub Pages project sites) and any
// route prefix the course is mounted at inside a bigger Astro site (e.g. /course).
import { lessonLink } from '../../pipeline/read/index.ts';
import { siteOptions } from './options.ts';

export function href(path = ''): string {
  const base = import.meta.env.BASE_URL.replace(/\/+$/, '') + siteOptions().prefix;
  const rest = path.replace(/^\/+/, '');
  return `${base}/${rest}`;
}

export function lessonPath(lesson: { id: string; slug: string }): string {
  return lessonLink('', lesson);
}

export function lessonHref(lesson: { id: string; slug: string }): string {
  return href(lessonPath(lesson));
}
