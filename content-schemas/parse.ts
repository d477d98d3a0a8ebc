// The one parse entry point for data files: text → YAML/JSON → schema, or a DataFileError whose
// message has one line per problem naming the file and the field path.
import type { z } from 'zod';
import { CodelabgenError, EXIT } from './errors.ts';
import type { SafeParser } from './safe-parser.ts';
import { loadLazily } from './lazy-load.ts';
import { readRegularFile, UnreadableFileError } from './regular-file.ts';
import type * as Yaml from './yaml.ts';
import { parseYamlSubset } from './yaml-subset.ts';

let yamlModule: typeof Yaml | undefined;

/** js-yaml, loaded on the first YAML (or JSON duplicate-key) check: `state log` never needs it. */
function yaml(): typeof Yaml {
  yamlModule ??= loadLazily<typeof Yaml>('yaml', './yaml.ts');
  return yamlModule;
}

export const MAX_DATA_FILE_BYTES = 8 * 1024 * 1024;

/** A data file that does not parse or validate: exit 2, one line per problem. */
export class DataFileError extends CodelabgenError {
  readonly exitCode = EXIT.refused;
  readonly file: string;
  readonly problems: string[];
  constructor(file: string, problems: string[], options?: ErrorOptions) {
    super(problems.map((problem) => `${file}: ${problem}`).join('\n'), [], options);
    this.name = 'DataFileError';
    this.file = file;
    this.problems = problems;
  }

  /** The first problem as the error line, with a count of the others, which follow as hints. */
  override report(): { error: string; hints: string[] } {
    const [first = '', ...more] = this.message.split('\n');
    return {
      error: `${first}${more.length > 0 ? ` (and ${more.length} more problem${more.length > 1 ? 's' : ''})` : ''}`,
      hints: more,
    };
  }
}

/** `modules[1].lessons[0].id` from a zod issue path. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(top level)' : out;
}

function describeInput(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (input === null || typeof input !== 'object') {
    const text = JSON.stringify(input) ?? String(input);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  }
  return Array.isArray(input) ? 'a list' : 'a mapping';
}

function describeExpected(expected: string): string {
  return expected === 'object'
    ? 'a mapping'
    : expected === 'array'
      ? 'a list'
      : /^[aeiou]/.test(expected)
        ? `an ${expected}`
        : `a ${expected}`;
}

export function issuesToProblems(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const field = formatFieldPath(issue.path);
    if (issue.code === 'unrecognized_keys')
      return `${field}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    if (
      (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
      'input' in issue &&
      issue.input === undefined
    ) {
      return (
        `${field}: missing; ` +
        `${issue.code === 'invalid_type' ? `expected ${describeExpected(issue.expected)}` : issue.message.replace(/^Invalid (option|input): /, '')}`
      );
    }
    const got = 'input' in issue && issue.code !== 'invalid_union' ? `, got ${describeInput(issue.input)}` : '';
    return `${field}: ${issue.message}${got}`;
  });
}

/** Validates already-parsed data; throws DataFileError naming `file` and each field. */
export function parseData<T>(schema: SafeParser<T>, data: unknown, file: string): T {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw new DataFileError(file, issuesToProblems(result.error.issues));
}

export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new DataFileError(file, ['not valid UTF-8 text'], { cause: error });
  }
}

export function parseYamlText(text: string, file: string): unknown {
  // Plain YAML (init's config.yaml, the template's spec.yaml) without js-yaml: the same result.
  const plain = parseYamlSubset(text);
  if (plain !== undefined) return plain;
  try {
    // maxAliases bounds alias bombs ("billion laughs"); maxDepth bounds deep nesting.
    return yaml().load(text, { filename: file, maxAliases: 100, maxDepth: 64 });
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new DataFileError(file, [`invalid YAML: ${message.replace(/^YAMLException: /, '')}`], { cause: error });
  }
}

/** JSON.parse, plus a refusal of duplicate keys (which JSON.parse would silently collapse). */
export function parseJsonText(text: string, file: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new DataFileError(file, [`invalid JSON: ${(error as Error).message}`], { cause: error });
  }
  if (typeof data === 'object' && data !== null && /"\s*:/.test(text)) {
    try {
      yaml().load(text, { schema: yaml().JSON_SCHEMA, maxAliases: 0, maxDepth: 256 });
    } catch (error) {
      const message = (error as Error).message;
      if (/duplicat/i.test(message))
        throw new DataFileError(file, [`invalid JSON: ${message.split('\n')[0]}`], { cause: error });
      // Anything else is a YAML-vs-JSON dialect difference; JSON.parse accepted the text.
    }
  }
  return data;
}

const UNREADABLE: Record<string, string> = {
  ENOENT: 'file not found',
  EISDIR: 'is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many symbolic links',
  ENOTDIR: 'a parent of it is not a folder',
};

export function readTextFile(absPath: string, file: string): string {
  try {
    return decodeUtf8(readRegularFile(absPath, MAX_DATA_FILE_BYTES), file);
  } catch (error) {
    if (error instanceof UnreadableFileError)
      throw new DataFileError(file, [error.kind === 'size' ? `file ${error.reason}` : error.reason], { cause: error });
    const reason = UNREADABLE[(error as NodeJS.ErrnoException).code ?? ''];
    if (reason !== undefined) throw new DataFileError(file, [reason], { cause: error });
    throw error;
  }
}

/** Reads and validates a YAML or JSON data file. */
export function parseDataFile<T>(schema: SafeParser<T>, absPath: string, file: string): T {
  const text = readTextFile(absPath, file);
  const data = file.toLowerCase().endsWith('.json') ? parseJsonText(text, file) : parseYamlText(text, file);
  return parseData(schema, data, file);
}

/** Reads and validates a JSONL data file: problems are named `file:line: field: ...`. */
export function parseJsonlText<T>(schema: SafeParser<T>, text: string, file: string): T[] {
  const items: T[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${file}:${index + 1}`;
    try {
      items.push(parseData(schema, parseJsonText(line, where), where));
    } catch (error) {
      if (!(error instanceof DataFileError)) throw error;
      problems.push(...error.problems.map((problem) => `line ${index + 1}: ${problem}`));
    }
  });
  if (problems.length > 0) throw new DataFileError(file, problems);
  return items;
}

export function parseJsonlFile<T>(schema: SafeParser<T>, absPath: string, file: string): T[] {
  return parseJsonlText(schema, readTextFile(absPath, file), file);
}

/** Splits `---\nyaml\n---\nbody` into its front matter data and body. */
export function parseFrontMatter(text: string, file: string): { data: unknown; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!match) throw new DataFileError(file, ['missing YAML front matter (a block between "---" lines at the top)']);
  return { data: parseYamlText(match[1] ?? '', file), body: match[2] ?? '' };
}
