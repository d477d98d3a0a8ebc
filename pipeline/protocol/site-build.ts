// `site build`'s record: a publish build of a course with a state becomes a site.build event, which
// the assembly phase needs (docs/protocol.md, "Phases"). Pure.
import type { EventDraft } from '../../content-schemas/index.ts';

/** What a finished publish build produced. */
export interface SiteBuildFacts {
  /** The output folder (absolute). */
  out: string;
  pages: number;
  lessons: string[];
}

export function decideSiteBuild(facts: SiteBuildFacts): EventDraft {
  return { kind: 'site.build', out: facts.out.slice(0, 1024), pages: facts.pages, lessons: facts.lessons };
}
