// Whether mermaid diagrams parse, without drawing them (no browser): one child process parses every
// diagram given (pipeline/site/diagram-parse-child.ts). `check` parses every lesson's diagrams and
// `state set <id> notes` (and readalong) the lesson's own, with the same messages (docs/protocol.md).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './package-root.ts';

export interface DiagramSource {
  lesson: string;
  /** Where the diagram is: a fence's `docs/notes.md:12` (the opening fence's line) or `docs/diagrams/flow.mmd`. */
  where: string;
  source: string;
}

export interface DiagramParseOutcome {
  /** `lesson <id> <doc>:<line>: diagram does not parse: <mermaid's message>`, its line breaks kept. */
  problems: string[];
  /** Why nothing was parsed (mermaid not installed, the parser timed out), or null. */
  unavailable: string | null;
}

const TIMEOUT_MS = 120_000; // mermaid and jsdom load in 1-2 s; much more only on a machine far too busy

function childEntry(): string {
  return import.meta.url.endsWith('.ts')
    ? fileURLToPath(new URL('./diagram-parse-child.ts', import.meta.url))
    : path.join(packageRoot(), 'dist', 'diagram-parse.mjs');
}

/**
 * Mermaid's "line N" counts from the diagram's first line; a fence's diagram starts the line after
 * the fence, so the doc's line is the fence's plus N. `.mmd` files keep mermaid's numbering.
 */
export function diagramProblem(diagram: DiagramSource, message: string): string {
  const fence = /^(.*):(\d+)$/.exec(diagram.where);
  const line = /\bline (\d+)\b/.exec(message);
  const where =
    fence && line
      ? `${fence[1]}:${Number(fence[2]) + Number(line[1])}`
      : line
        ? `${diagram.where}:${line[1]}`
        : diagram.where;
  return `lesson ${diagram.lesson} ${where}: diagram does not parse: ${message.trim()}`;
}

/** Parses every diagram in one child process; nothing to parse starts nothing. */
export function parseDiagrams(diagrams: readonly DiagramSource[]): DiagramParseOutcome {
  if (diagrams.length === 0) return { problems: [], unavailable: null };
  const child = spawnSync(process.execPath, [childEntry()], {
    input: JSON.stringify({ sources: diagrams.map((diagram) => diagram.source) }),
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.error || child.status !== 0) {
    const why = child.error?.message ?? (child.signal ? `killed by ${child.signal}` : `exit ${child.status}`);
    return {
      problems: [],
      unavailable: `the diagram parser failed (${why}) ${child.stderr.trim().split('\n')[0] ?? ''}`.trim(),
    };
  }
  const answer = JSON.parse(child.stdout) as { results?: Array<string | null>; unavailable?: string };
  if (answer.unavailable !== undefined) return { problems: [], unavailable: answer.unavailable };
  const problems = diagrams.flatMap((diagram, index) => {
    const message = answer.results?.[index];
    return typeof message === 'string' ? [diagramProblem(diagram, message)] : [];
  });
  return { problems, unavailable: null };
}
