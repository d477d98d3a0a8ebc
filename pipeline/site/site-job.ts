// What the CLI sends a site worker (pipeline/site/worker.ts) and what the worker sends back: the
// job, its progress and its result. Types only, shared by build.ts, worker-fork.ts and worker.ts.
import type { DiagramStats } from './diagrams.ts';
import type { Failure } from './failure.ts';
import type { BuildStep } from './build-step.ts';
import type { Prepared } from './prepare.ts';
import type { PageWeight } from './stats.ts';

/** What a finished build reports to the integration's caller (the worker, a host's build): the CLI prints it. */
export interface BuildSummary {
  lessons: string[];
  excluded: Prepared['excluded'];
  diagrams: DiagramStats;
  /** Diagram problems shown as error boxes (drafts) instead of failing the build. */
  diagramErrors: string[];
  /** Diagrams were left to the reader's browser: why, and how to draw them at build time (diagrams.ts leftToBrowserWarning). */
  browserDiagrams: string | null;
  /** Lesson pages rendered by this build; the others were unchanged and kept from the last build. */
  lessonPagesRendered: number;
  searchPages: number;
  /** The search index of the replaced output was kept: no page changed (pipeline/site/search.ts). */
  searchKept: boolean;
  recorded: boolean;
  /** The course is in a shallow git clone: the lesson pages show no last-updated date (pipeline/read/git-history.ts). */
  shallowClone: boolean;
}

/** The worker's result: the summary, with the output's pages, their weights (--stats) and the time taken. */
export interface SiteBuildResult extends BuildSummary {
  out: string;
  pages: string[];
  weights: PageWeight[] | null;
  ms: number;
}

/** What the CLI asks of one worker run. */
export interface SiteJob {
  mode: 'build' | 'dev' | 'preview';
  course: string;
  /** Where Astro writes: for a build, a staging folder that replaces `publishedOut` at the end. */
  out: string;
  /** The --out folder the site.build event names. */
  publishedOut?: string;
  strictDiagrams?: boolean;
  base: string;
  site?: string | undefined;
  drafts: boolean;
  stats: boolean;
  diagramCache: string;
  /** Astro's content cache, kept between runs of the same course. */
  cacheDir: string;
  command: string;
  port?: number | undefined;
  /** Address to listen on (Astro's server.host); default localhost. */
  host?: string | undefined;
  /** Open the browser once the server listens (Astro's server.open). */
  open?: boolean | undefined;
}

/** Messages from the worker. */
export type WorkerMessage =
  | { kind: 'progress'; step: BuildStep; detail: string }
  | { kind: 'built'; result: SiteBuildResult }
  | { kind: 'ready' }
  | ({ kind: 'failed' } & Failure);
