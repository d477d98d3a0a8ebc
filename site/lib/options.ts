// The options the codelabgen integration (pipeline/site/integration.ts) gives the course pages,
// read from its virtual module: the course folder, drafts, dev mode, diagram cache, route prefix.
import options from 'virtual:codelabgen/options';
import type { SiteOptions } from '../../pipeline/read/index.ts';

export type { SiteOptions };

export function siteOptions(): SiteOptions {
  return options;
}
