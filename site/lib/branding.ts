// The course's `site:` settings (config.yaml) as the pages use them: images inlined as data URIs,
// both accent colours, and whether production details are shown.
import { darkAccent, type SiteConfig } from '../../content-schemas/index.ts';
import { readSiteAssets } from '../../pipeline/read/index.ts';
import type { SiteOptions } from './options.ts';

export interface Branding {
  /** Production details (stages, hashes, run numbers, report): drafts, dev, or `site.report: true`. */
  producer: boolean;
  logo: string | null;
  favicon: string | null;
  accent: { light: string; dark: string } | null;
  footer: string | null;
  editUrl: string | null;
  repoUrl: string | null;
  lang: string;
}

export function branding(course: string, site: SiteConfig, options: SiteOptions): Branding {
  const { logo, favicon } = readSiteAssets(course, site);
  return {
    producer: options.drafts || options.dev || site.report,
    logo,
    favicon,
    accent:
      site.accent === undefined ? null : { light: site.accent, dark: site.accent_dark ?? darkAccent(site.accent) },
    footer: site.footer ?? null,
    editUrl: site.edit_url ?? null,
    repoUrl: site.repo_url ?? null,
    lang: site.lang,
  };
}
