// THE registry of lesson doc kinds (docs/readalong.md, docs/notes.md, ...): the one list that the
// site, `check`, link resolution, the stage checks, briefs, MCP and the docs read (docs/architecture.md,
// "Registries"). Adding a kind is an entry here. Zod-free: the state commands' start-up path reads it.
import type { STAGES } from './names.ts';
import { listInProse } from './prose-list.ts';

export interface DocKind {
  /** The file's base name: `docs/<name>.md` (or `.mdx`); also its section id on the lesson page. */
  readonly name: string;
  /** The stage whose forward move (`state set <id> <stage>`) checks this doc; null: only `check` does. */
  readonly stage: (typeof STAGES)[number] | null;
  /** Whether the move to `stage` refuses a lesson without the doc (else it is checked when present). */
  readonly required: boolean;
  /** Whether the move to `stage` refuses the doc without a code reference (and `check` warns). */
  readonly needsCodeReference: boolean;
  /** Whether the lesson's `docs/diagrams/*.mmd` are checked with this doc's stage. */
  readonly ownsDiagramFiles: boolean;
  /** The section heading on the lesson page when the doc has no title of its own. */
  readonly title: string;
  /** How prose names it: "No readalong yet.", "a readalong shows ...". */
  readonly noun: string;
  /** How the site lays it out: `steps` pins the code beside the prose (ReadAlong.astro), `prose` does not. */
  readonly layout: 'steps' | 'prose';
  /** The worker role that writes it (its brief lists the file). */
  readonly writer: string;
  /** The `codelabgen conventions` topic whose rules it follows (named by refusals and warnings). */
  readonly conventions: string;
}

/** In page order: the lesson page shows the docs in this order, after the objectives. */
export const DOC_KINDS = [
  {
    name: 'readalong',
    stage: 'readalong',
    required: true,
    needsCodeReference: true,
    ownsDiagramFiles: false,
    title: 'Read along',
    noun: 'readalong',
    layout: 'steps',
    writer: 'readalong-writer',
    conventions: 'readalong',
  },
  {
    name: 'notes',
    stage: 'notes',
    required: true,
    needsCodeReference: false,
    ownsDiagramFiles: true,
    title: 'Notes',
    noun: 'notes',
    layout: 'prose',
    writer: 'notes-writer',
    conventions: 'notes',
  },
] as const satisfies readonly DocKind[];

export type DocKindName = (typeof DOC_KINDS)[number]['name'];

/** The kinds' names in page order. */
export const DOC_KIND_NAMES: readonly DocKindName[] = DOC_KINDS.map((kind) => kind.name);

/** A kind's files relative to the lesson folder, the .md one first (it wins when both exist). */
export function docFiles(kind: Pick<DocKind, 'name'>): [md: string, mdx: string] {
  return [`docs/${kind.name}.md`, `docs/${kind.name}.mdx`];
}

/** Every lesson doc file relative to the lesson folder, kind by kind in page order. */
export function lessonDocFiles(): string[] {
  return DOC_KINDS.flatMap(docFiles);
}

/** The kind a lesson-relative file (`docs/notes.mdx`) belongs to, or undefined. */
export function docKindOfFile(file: string): DocKind | undefined {
  return DOC_KINDS.find((kind) => docFiles(kind).includes(file));
}

/** The kinds whose forward move to `stage` checks them (none for most stages). */
export function docKindsOfStage(stage: string): DocKind[] {
  return DOC_KINDS.filter((kind) => kind.stage === stage);
}

/** The .md files as prose: "docs/readalong.md or docs/notes.md". */
export function docFileList(conjunction: 'or' | 'and' = 'or'): string {
  return listInProse(
    DOC_KINDS.map((kind) => docFiles(kind)[0]),
    conjunction,
  );
}

/** The kinds' nouns as prose: "readalong and notes". */
export function docNounList(conjunction: 'or' | 'and' = 'and'): string {
  return listInProse(
    DOC_KINDS.map((kind) => kind.noun),
    conjunction,
  );
}
