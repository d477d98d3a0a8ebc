// What the CLI hands the site for one build: the course folder, drafts or publish, dev mode and
// the diagram cache. Set by pipeline/site/build.ts in $CODELABGEN_SITE (one build per process).
export interface SiteOptions {
  course: string;
  drafts: boolean;
  dev: boolean;
  diagramCache: string;
}

export function siteOptions(): SiteOptions {
  const raw = process.env.CODELABGEN_SITE;
  if (!raw) throw new Error('CODELABGEN_SITE is not set: run the site through `codelabgen site build|dev|preview`');
  return JSON.parse(raw) as SiteOptions;
}
