// The conventions a lesson worker follows, in short, with a code reference that is valid in this
// lesson (a real file, a range inside it). The whole text is `codelabgen conventions <topic>`
// (pipeline/authoring/conventions.ts); the site and `check` enforce it.
import path from 'node:path';
import { docFileList } from '../../content-schemas/index.ts';
import type { LessonFacts, LessonFile } from './facts.ts';

const FENCE = '```';

/** The fence language of a file, by extension (the site highlights by it). */
const LANGUAGES: Readonly<Record<string, string>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
  '.py': 'python',
  '.json': 'json',
  '.sh': 'sh',
  '.go': 'go',
  '.rs': 'rust',
};
/** Lines an example reference shows at most. */
const EXAMPLE_LINES = 12;

/** A file to show in an example reference: a text file with lines, not a test when there is another. */
function exampleFile(files: readonly LessonFile[]): (LessonFile & { lines: number }) | null {
  // A path an info string can hold as it is (no spaces, quotes or control characters).
  const text = files.filter(
    (file): file is LessonFile & { lines: number } =>
      file.lines !== null && file.lines > 0 && /^[\w./@+-]+$/.test(file.path),
  );
  const isTest = (file: LessonFile) => /(^|[/._-])tests?([/._-]|$)|\.spec\./.test(file.path);
  return text.find((file) => !isTest(file) && LANGUAGES[path.extname(file.path)]) ?? text[0] ?? null;
}

/** A code reference valid in this lesson now (its file exists, its range is inside it), or null when it has no code. */
export function exampleReference(files: readonly LessonFile[]): { fence: string; file: string; lines: number } | null {
  const file = exampleFile(files);
  if (file === null) return null;
  const language = LANGUAGES[path.extname(file.path)] ?? (path.extname(file.path).slice(1) || 'text');
  const last = Math.min(file.lines, EXAMPLE_LINES);
  const mark = last >= 3 ? ` mark=${Math.min(2, last)}-${Math.min(3, last)}` : '';
  return {
    fence: `${FENCE}${language} file=${file.path} lines=1-${last}${mark}\n${FENCE}`,
    file: file.path,
    lines: file.lines,
  };
}

function codeReferenceLines(facts: LessonFacts): string[] {
  const example = exampleReference(facts.codeFiles);
  return [
    "Code references: show the lesson's code with an EMPTY fenced block whose info string names the file " +
      '(relative to the lesson folder) and the lines; the site fills it from the verified file. Valid in ' +
      'this lesson:',
    '',
    example === null
      ? `${FENCE}ts file=src/x.ts lines=10-24\n${FENCE}\n(the lesson has no code file yet; name one of its files once it has)`
      : `${example.fence}\n\n(${example.file} has ${example.lines} lines; lines=A-B is 1-based and inclusive, mark= highlights the lines your prose is about)`,
    '',
    `Not references: title=, {10-24}, path:10-24, lines= without file=, an HTML comment. A missing file ` +
      `or a range past its end fails codelabgen check and the site build. Whole rules: codelabgen ` +
      `conventions readalong`,
  ];
}

const DIAGRAMS =
  `Diagrams: a ${FENCE}mermaid fenced block in the doc, or a docs/diagrams/<name>.mmd file (first line ` +
  `%% title: <title>) shown in the lesson's Diagrams section. Keep one idea a diagram; its labels match ` +
  `the code's names. Whole rules: codelabgen conventions diagrams`;
const FRONT_MATTER =
  'Front matter (optional) at the top of a doc: a --- line, title: and description: (text, nothing else), a --- line. The title wins over a leading # Title.';

export function conventionLines(facts: LessonFacts): string[] {
  switch (facts.role.role) {
    case 'example-designer':
      return [
        'The spec is YAML valid against the lesson-spec schema (above); lesson is the lesson id. files are ' +
          "paths relative to the lesson folder; tests are the behaviours the code-author's tests must check, " +
          'one a line.',
        'A lesson is small: one idea, a few files, tests that run in seconds without the network (unless network: true).',
      ];
    case 'code-author':
    case 'code-fixer':
      return [
        'Every file outside docs/ (and dependency or cache folders) is lesson code: its hash is what verify records, and a change after verification is drift.',
        'Tests run in the lesson folder, offline, and may write only there; keep them deterministic (no clocks or random without a seed).',
        'Keep the code readable as teaching material: the readalong will show it line by line.',
      ];
    case 'readalong-writer':
      return [
        ...codeReferenceLines(facts),
        '',
        'docs/readalong.md needs at least one code reference (state set refuses it otherwise). Write a ' +
          'heading, then a reference, then what it shows: wide screens pin the code beside the prose, step by ' +
          'step.',
        '',
        DIAGRAMS,
        '',
        FRONT_MATTER,
      ];
    case 'notes-writer':
      return [
        ...codeReferenceLines(facts),
        '',
        `Links to another lesson: a markdown link to its folder, ${docFileList()} ` +
          `(../../<lesson folder>/docs/notes.md). Asides: :::note, :::tip, :::caution or :::danger, the ` +
          `content, then :::. Whole rules: codelabgen conventions notes`,
        '',
        DIAGRAMS,
        '',
        FRONT_MATTER,
      ];
    default:
      return [
        `review.md: YAML front matter valid against the review schema (lesson, verdict pass|revise, reviewer, ` +
          `round, findings), then the review in markdown. Whole rules: codelabgen conventions review`,
        '',
        ...codeReferenceLines(facts),
      ];
  }
}
