// Whether mermaid diagrams parse, without drawing them (no browser): one child process parses every
// diagram given (pipeline/site/diagram-parse-child.ts). `check` parses every lesson's diagrams and
// `state set <id> notes` (and readalong) the lesson's own, with the same messages (docs/protocol.md).
// What mermaid made of a source is kept by content hash in the per-user diagram cache, so only new
// or changed diagrams start the parser (mermaid and jsdom take 1-2 s to load).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagramCacheDir, mermaidVersion, writeCacheEntry } from './diagram-cache.ts';
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

/** Where the parse outcome of `source` is kept: its content hash and the mermaid version that parsed it. */
function parsedFile(dir: string, source: string): string {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 32);
  return path.join(dir, 'parsed', `${hash}-mermaid${mermaidVersion()}.json`);
}

/** mermaid's message (or null: it parses) kept for `source`, or undefined when not kept (or unreadable). */
function keptOutcome(dir: string, source: string): string | null | undefined {
  try {
    const kept = JSON.parse(readFileSync(parsedFile(dir, source), 'utf8')) as { error?: unknown };
    return typeof kept.error === 'string' || kept.error === null ? kept.error : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps an outcome (a temp file renamed into place); a cache that cannot be written is only slower. */
function keepOutcome(dir: string, source: string, error: string | null): void {
  try {
    writeCacheEntry(parsedFile(dir, source), JSON.stringify({ error }));
  } catch {
    // read-only or full cache: parsed again next time
  }
}

/**
 * Parses every diagram: the outcomes kept in the diagram cache are used as they are, the others are
 * parsed in one child process and kept. Nothing left to parse starts nothing.
 */
export function parseDiagrams(
  diagrams: readonly DiagramSource[],
  env: NodeJS.ProcessEnv = process.env,
): DiagramParseOutcome {
  if (diagrams.length === 0) return { problems: [], unavailable: null };
  const cache = diagramCacheDir(env);
  const outcomes = new Map<string, string | null>();
  for (const { source } of diagrams) {
    const kept = keptOutcome(cache, source);
    if (kept !== undefined) outcomes.set(source, kept);
  }
  const todo = [...new Set(diagrams.map((diagram) => diagram.source))].filter((source) => !outcomes.has(source));
  if (todo.length > 0) {
    const parsed = parseInChild(todo, path.join(cache, 'compile'));
    if (typeof parsed === 'string') return { problems: [], unavailable: parsed };
    todo.forEach((source, index) => {
      const message = parsed[index] ?? null;
      outcomes.set(source, message);
      keepOutcome(cache, source, message);
    });
  }
  const problems = diagrams.flatMap((diagram) => {
    const message = outcomes.get(diagram.source);
    return typeof message === 'string' ? [diagramProblem(diagram, message)] : [];
  });
  return { problems, unavailable: null };
}

/** mermaid's message (or null) for each source, in order; or why nothing could be parsed. */
function parseInChild(sources: readonly string[], compileCache: string): Array<string | null> | string {
  const child = spawnSync(process.execPath, [childEntry()], {
    input: JSON.stringify({ sources, compileCache }),
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.error || child.status !== 0) {
    const why = child.error?.message ?? (child.signal ? `killed by ${child.signal}` : `exit ${child.status}`);
    return `the diagram parser failed (${why}) ${child.stderr.trim().split('\n')[0] ?? ''}`.trim();
  }
  const answer = JSON.parse(child.stdout) as { results?: Array<string | null>; unavailable?: string };
  if (answer.unavailable !== undefined) return answer.unavailable;
  return sources.map((_, index) => {
    const message = answer.results?.[index];
    return typeof message === 'string' ? message : null;
  });
}
