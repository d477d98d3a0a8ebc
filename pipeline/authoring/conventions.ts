// The doc conventions shared by the CLI, the site and the example courses: one source for
// `codelabgen conventions [topic]` and docs/conventions.md (generated; a test fails on drift), and
// the readalong lint behind `check`'s warnings and `state set <id> readalong`.
import { DOC_KINDS, docFiles, listInProse } from '../../content-schemas/fast.ts';
import { docFences } from '../site/doc-tokens.ts';
import { splitFences, type Fence } from '../site/fences.ts';

export const CONVENTION_TOPICS = ['readalong', 'diagrams', 'review', 'notes'] as const;
export type ConventionTopic = (typeof CONVENTION_TOPICS)[number];

const FENCE = '```';

// The lesson docs as the texts name them, from the registry (content-schemas/doc-kinds.ts).
const EVERY_DOC = listInProse(
  DOC_KINDS.map((kind) => `the ${kind.noun}`),
  'and',
);
const DOC_FILES_CODE = (prefix: string) =>
  listInProse(
    DOC_KINDS.map((kind) => `${prefix}\`${docFiles(kind)[0]}\``),
    'or',
  );

export const CONVENTIONS: Record<ConventionTopic, { title: string; body: string }> = {
  readalong: {
    title: 'Readalong code references',
    body: `A readalong (\`docs/readalong.md\`, or notes) shows real lines of the lesson's tested code with an
**empty fenced block** whose info string names the file and the line range:

${FENCE}\`md
${FENCE}ts file=src/line-splitter.ts lines=10-24
${FENCE}
${FENCE}\`

- \`file=\` is relative to the lesson folder (\`<module>/<lesson>/\`), never \`..\` or absolute.
- \`lines=A-B\` (1-based, inclusive) or \`lines=A\`; without \`lines=\` the whole file is shown.
- \`mark=12-14,18\` (optional) highlights those lines (numbers are line numbers of the file).
- The block body must be empty: the site fills it from the file, so the page always shows the
  verified code. A missing file or a range past the end fails the site build and \`codelabgen check\`
  names the lesson, the doc and the line of the reference.
- In \`.mdx\` docs (only with \`site.mdx: true\` in config.yaml) the same is \`<CodeRef file="src/x.ts" lines="10-24" />\`.
- A reference may sit inside a list item, a blockquote or an aside (indented with its text); it is
  then shown there, inline, and its problems name its own line.
- \`codelabgen state set <id> readalong\` refuses a \`docs/readalong.md\` with no code reference.
- On wide screens the site shows a readalong as steps, the code pinned beside the prose: a step is
  a reference, the heading right before it, and the prose after it up to the next heading that
  leads to a reference. Write a heading, then the reference, then what it shows, and give each
  reference the \`mark=\` lines the prose talks about.

Not references (\`codelabgen check\` warns about fences that look like one):

${FENCE}\`text
${FENCE}ts title=src/line-splitter.ts          (title= is not file=)
${FENCE}ts {10-24}                             (use lines=10-24 with file=)
${FENCE}ts src/line-splitter.ts:10-24          (use file=src/line-splitter.ts lines=10-24)
${FENCE}ts lines=10-24                         (lines= needs file=)
<!-- file: src/line-splitter.ts -->          (a comment is not shown)
${FENCE}\``,
  },
  diagrams: {
    title: 'Diagrams',
    body: `- \`\`\`\` ${FENCE}mermaid \`\`\`\` fenced blocks in ${DOC_FILES_CODE('')}:

${FENCE}\`md
${FENCE}mermaid
flowchart LR
  source --> transform --> sink
${FENCE}
${FENCE}\`

- \`docs/diagrams/*.mmd\` files, shown in the lesson's Diagrams section; a first line
  \`%% title: Some title\` names the diagram, else the file name does.`,
  },
  review: {
    title: 'Review files',
    body: `\`.codelabgen/lessons/<id>/review.md\` starts with YAML front matter valid against
\`codelabgen schema show review\` (\`lesson\`, \`verdict: pass|revise\`, optional \`reviewer\`, \`round\`,
\`findings\`), then the review in markdown:

${FENCE}md
---
lesson: "1.2"
verdict: pass
reviewer: lesson-reviewer
round: 2
findings:
  - { severity: minor, where: docs/readalong.md, text: "Say why write() returns false." }
---
Clear and correct; one minor finding.
${FENCE}

- \`codelabgen state set <id> reviewed\` needs \`verdict: pass\`. After a move back, the review must
  be for the current round: \`round\` is the review rounds used so far plus one, or the file is
  written after the move back.`,
  },
  notes: {
    title: 'Notes',
    body: `\`docs/notes.md\` is the lesson's explanation: prose in markdown, with code references and
diagrams written as in the readalong (\`codelabgen conventions readalong\`, \`codelabgen conventions
diagrams\`). A code reference is welcome but not required in the notes.

${FENCE}\`md
# Backpressure

\`write()\` returns \`false\` when the buffer is full; wait for \`'drain'\`:

${FENCE}js file=src/copy.mjs lines=8-14
${FENCE}
${FENCE}\`

${EVERY_DOC[0]!.toUpperCase()}${EVERY_DOC.slice(1)} can also use:

- Asides: \`:::note\`, \`:::tip\`, \`:::caution\` or \`:::danger\` on a line of its own (a title may
  follow: \`:::tip[Use pipeline()]\` or \`:::tip Use pipeline()\`), the content, then \`:::\`; or GitHub's
  \`> [!NOTE]\`, \`> [!TIP]\`, \`> [!IMPORTANT]\`, \`> [!WARNING]\`, \`> [!CAUTION]\`.
- Links to other lessons: a markdown link whose target is the path from the doc to another lesson's
  folder, ${DOC_FILES_CODE('its ')} (e.g. \`../../1.1-readable-streams/docs/notes.md\`,
  optionally with \`#anchor\`) opens that lesson's page.
- Images inside the lesson folder: \`![what it shows](img/flow.png)\` (png, jpg, webp, gif, avif or
  svg); the site publishes an optimized copy.
- A relative link or image that does not resolve fails the site build naming the doc and the line.`,
  },
};

/** One topic, or all of them, as markdown (what `codelabgen conventions [topic]` prints). */
export function renderConventions(topic?: ConventionTopic): string {
  const topics = topic === undefined ? CONVENTION_TOPICS : [topic];
  return topics.map((name) => `## ${CONVENTIONS[name].title}\n\n${CONVENTIONS[name].body}\n`).join('\n');
}

/** docs/conventions.md. */
export function renderConventionsDoc(): string {
  return [
    '# Conventions shared by the CLI, the site and the example courses',
    '',
    '<!-- Generated from pipeline/authoring/conventions.ts by `npm run docs`; do not edit by hand. The CLI ' +
      'prints the same: `codelabgen conventions [readalong|diagrams|review|notes]`. -->',
    '',
    renderConventions(),
  ].join('\n');
}

/** The refusal of an .mdx lesson doc in a course without `site.mdx: true` (docs/site.md "MDX"). */
export function mdxNotAllowed(lesson: string, doc: string): string {
  return `lesson ${lesson} ${doc}: .mdx docs run code at build time; set site.mdx: true in .codelabgen/config.yaml to allow them (or rename to .md)`;
}

export interface ReadalongLint {
  /** Code references (fences with `file=`). */
  references: number;
  /** Fences and comments that look like a failed code reference: one line each, with the doc line. */
  suspicious: string[];
}

/** Why a fence without `file=` looks like a code reference that failed, or null. */
function failedReferenceWhy(fence: Fence): string | null {
  const info = `${fence.lang} ${fence.meta}`.trim();
  if (/(^|\s)file=/.test(info)) return null;
  if (/(^|\s)title=/.test(info)) return 'title= is not file=';
  if (/(^|\s)lines=/.test(info)) return 'lines= needs file=';
  if (/\{\d+(-\d+)?(,\d+(-\d+)?)*\}/.test(info)) return '{N-M} is not a range here: use file=... lines=N-M';
  if (/\S+:\d+(-\d+)?(\s|$)/.test(info)) return 'path:N-M is not a reference: use file=PATH lines=N-M';
  return null;
}

/** Counts the code references of a readalong or notes doc and finds the failed-looking ones. */
export function lintDoc(text: string): ReadalongLint {
  let references = 0;
  const found: { line: number; text: string }[] = [];
  for (const block of splitFences(text)) {
    if (block.kind !== 'text') continue;
    block.text.split('\n').forEach((line, index) => {
      if (/<!--.*\b(file|lines)\s*[:=]/.test(line))
        found.push({
          line: block.line + index,
          text: `line ${block.line + index}: an HTML comment naming a file is not shown; write an empty fence like ${FENCE}ts file=src/x.ts lines=10-24`,
        });
    });
  }
  for (const fence of docFences(text)) {
    const why = failedReferenceWhy(fence);
    if (/(^|\s)file=/.test(`${fence.lang} ${fence.meta}`)) references++;
    else if (why)
      found.push({
        line: fence.line,
        text: `line ${fence.line}: fence "${`${fence.lang} ${fence.meta}`.trim()}" looks like a code reference but is not one (${why})`,
      });
  }
  return { references, suspicious: found.sort((a, b) => a.line - b.line).map((f) => f.text) };
}
