// Whether mermaid diagrams parse, without drawing them (no browser): one child process parses every
// diagram given (pipeline/site/diagram-parse-child.ts). `check` parses every lesson's diagrams and
// `state set <id> notes` (and readalong) the lesson's own, with the same messages (docs/protocol.md).
// What mermaid made of a source is kept by content hash in the per-user diagram cache, so only new
// or changed diagrams start the parser (mermaid and its DOM take 0.5-1 s to load). `check` starts
// the parser at the first diagram the cache does not hold (DiagramParse) and goes on with its other
// checks while mermaid loads; `state set` has nothing to do meanwhile and waits for it (parseDiagrams).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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

const TIMEOUT_MS = 120_000; // mermaid and its DOM load in 0.5-1 s; much more only on a machine far too busy

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

/** How the child is started: the V8 compile cache of mermaid and its DOM kept in the user's own diagram cache. */
function childOptions(cache: string, env: NodeJS.ProcessEnv) {
  return {
    env: { ...env, NODE_COMPILE_CACHE: path.join(cache, 'compile') },
    timeout: TIMEOUT_MS,
    killSignal: 'SIGKILL' as const,
    stdio: ['pipe', 'pipe', 'pipe'] as Array<'pipe'>,
  };
}

/** The child's input: one line of JSON (the child starts loading mermaid before it comes). */
const childInput = (sources: readonly string[]) => `${JSON.stringify({ sources })}\n`;

interface ChildExit {
  status: number | null;
  signal: string | null;
  error?: Error | undefined;
  stdout: string;
  stderr: string;
}

interface ParseChild {
  process: ChildProcess;
  exit: Promise<ChildExit>;
}

/** The child's answer, read: mermaid's message (or null) for each source, in order; or why nothing was parsed. */
function childAnswer(sources: readonly string[], exit: ChildExit): Array<string | null> | string {
  if (exit.error || exit.status !== 0) {
    const why = exit.error?.message ?? (exit.signal ? `killed by ${exit.signal}` : `exit ${exit.status}`);
    return `the diagram parser failed (${why}) ${exit.stderr.trim().split('\n')[0] ?? ''}`.trim();
  }
  let answer: { results?: Array<string | null>; unavailable?: string };
  try {
    answer = JSON.parse(exit.stdout) as typeof answer;
  } catch {
    return `the diagram parser failed (its answer is not JSON: ${exit.stdout.slice(0, 200)})`;
  }
  if (answer.unavailable !== undefined) return answer.unavailable;
  return sources.map((_, index) => {
    const message = answer.results?.[index];
    return typeof message === 'string' ? message : null;
  });
}

/**
 * The diagrams of one check: each added diagram's outcome kept in the diagram cache is used as it
 * is; the first one not kept starts the parser's child process, which loads mermaid while the
 * caller goes on; finish() sends it every diagram not kept and gives the problems.
 */
export class DiagramParse {
  readonly #diagrams: DiagramSource[] = [];
  readonly #outcomes = new Map<string, string | null>();
  readonly #todo = new Set<string>();
  readonly #env: NodeJS.ProcessEnv;
  #cacheDir: string | null = null;
  #child: ParseChild | null = null;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#env = env;
  }

  /** The diagram cache, made at the first diagram (a course without diagrams makes no folder). */
  get #cache(): string {
    this.#cacheDir ??= diagramCacheDir(this.#env);
    return this.#cacheDir;
  }

  /** Whether the parser's child has been started. */
  get started(): boolean {
    return this.#child !== null;
  }

  get count(): number {
    return this.#diagrams.length;
  }

  add(diagram: DiagramSource): void {
    this.#diagrams.push(diagram);
    const { source } = diagram;
    if (this.#outcomes.has(source) || this.#todo.has(source)) return;
    const kept = keptOutcome(this.#cache, source);
    if (kept !== undefined) this.#outcomes.set(source, kept);
    else {
      this.#todo.add(source);
      this.#child ??= this.#start();
    }
  }

  /**
   * Starts the parser now when the cache does not hold `source`'s outcome, before the diagram is
   * added (in its place: add() keeps the order of diagrams and sources); a kept outcome read here is
   * not read again. Nothing once the parser has started.
   */
  prefetch(source: string): void {
    if (this.#child !== null || this.#outcomes.has(source)) return;
    const kept = keptOutcome(this.#cache, source);
    if (kept !== undefined) this.#outcomes.set(source, kept);
    else this.#child = this.#start();
  }

  /** Parses what the cache did not hold (the child started at add()), keeps the outcomes and gives the problems. */
  async finish(): Promise<DiagramParseOutcome> {
    if (this.#child !== null) {
      const sources = [...this.#todo];
      this.#child.process.stdin?.end(childInput(sources));
      const parsed = childAnswer(sources, await this.#child.exit);
      if (typeof parsed === 'string') return { problems: [], unavailable: parsed };
      sources.forEach((source, index) => {
        const message = parsed[index] ?? null;
        this.#outcomes.set(source, message);
        keepOutcome(this.#cache, source, message);
      });
    }
    return { problems: problemsOf(this.#diagrams, this.#outcomes), unavailable: null };
  }

  /** Stops the child (the check failed before finish()): nothing is left loading. */
  cancel(): void {
    this.#child?.process.kill('SIGKILL');
  }

  #start(): ParseChild {
    const child = spawn(process.execPath, [childEntry()], childOptions(this.#cache, this.#env));
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin?.on('error', () => {}); // a child that died early: its exit says why
    const exit = new Promise<ChildExit>((resolve) => {
      child.once('error', (error) => resolve({ status: null, signal: null, error, stdout, stderr }));
      child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    });
    return { process: child, exit };
  }
}

function problemsOf(diagrams: readonly DiagramSource[], outcomes: ReadonlyMap<string, string | null>): string[] {
  return diagrams.flatMap((diagram) => {
    const message = outcomes.get(diagram.source);
    return typeof message === 'string' ? [diagramProblem(diagram, message)] : [];
  });
}

/**
 * Parses every diagram and waits for it (`state set`): the outcomes kept in the diagram cache are
 * used as they are, the others are parsed in one child process and kept. Nothing left to parse
 * starts nothing.
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
    const child = spawnSync(process.execPath, [childEntry()], {
      ...childOptions(cache, env),
      input: childInput(todo),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const parsed = childAnswer(todo, { ...child, error: child.error });
    if (typeof parsed === 'string') return { problems: [], unavailable: parsed };
    todo.forEach((source, index) => {
      const message = parsed[index] ?? null;
      outcomes.set(source, message);
      keepOutcome(cache, source, message);
    });
  }
  return { problems: problemsOf(diagrams, outcomes), unavailable: null };
}
