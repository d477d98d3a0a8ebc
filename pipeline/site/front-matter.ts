// Front matter at the top of a lesson doc: a `---` line, `title:` and `description:`, a `---` line.
// It gives the doc's title (before a leading `# Title`) and a description; its lines are blanked, so
// the markdown after it keeps its line numbers. A broken block is a problem with its doc line (check,
// the site build and `site dev` report it like a broken code reference).
import { DataFileError, parseYamlText } from '../../content-schemas/fast.ts';

export interface DocFrontMatter {
  title: string | null;
  description: string | null;
}

export interface FrontMatterSplit {
  /** The doc with the front matter's lines left empty. */
  text: string;
  fields: DocFrontMatter;
  /** What is wrong with it, by doc line (1-based). */
  problems: Array<{ line: number; message: string }>;
}

const FIELDS = ['title', 'description'] as const;

/** The line (0-based, in the YAML text) js-yaml names in its error, when it does. */
function yamlErrorLine(error: unknown): number {
  const cause = error instanceof DataFileError ? error.cause : error;
  const line = (cause as { mark?: { line?: unknown } } | undefined)?.mark?.line;
  return typeof line === 'number' ? line : 0;
}

export function splitFrontMatter(text: string): FrontMatterSplit {
  const fields: DocFrontMatter = { title: null, description: null };
  const lines = text.split('\n');
  if (lines[0]?.replace(/\r$/, '') !== '---') return { text, fields, problems: [] };
  const end = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)\r?$/.test(line));
  if (end === -1)
    return {
      text,
      fields,
      problems: [
        {
          line: 1,
          message: 'front matter: the "---" on line 1 is never closed; end the block with a "---" line (or remove it)',
        },
      ],
    };
  const blanked = [...lines.slice(0, end + 1).map(() => ''), ...lines.slice(end + 1)].join('\n');
  const problems: FrontMatterSplit['problems'] = [];
  let data: unknown;
  try {
    data = parseYamlText(lines.slice(1, end).join('\n'), 'front matter');
  } catch (error) {
    const message =
      (error instanceof DataFileError ? error.problems[0] : String(error))?.replace(/\s*\(\d+:\d+\)$/, '') ??
      'invalid YAML';
    return {
      text: blanked,
      fields,
      problems: [{ line: 2 + yamlErrorLine(error), message: `front matter: ${message}` }],
    };
  }
  if (data === null || data === undefined) return { text: blanked, fields, problems };
  if (typeof data !== 'object' || Array.isArray(data))
    return {
      text: blanked,
      fields,
      problems: [{ line: 2, message: 'front matter: expected "title: ..." and "description: ..." lines' }],
    };
  const lineOf = (key: string) =>
    1 +
    Math.max(
      1,
      lines
        .slice(0, end)
        .findIndex((line) => line.startsWith(`${key}:`) || line.startsWith(`"${key}"`) || line.startsWith(`'${key}'`)),
    );
  for (const [key, value] of Object.entries(data)) {
    if (!(FIELDS as readonly string[]).includes(key))
      problems.push({
        line: lineOf(key),
        message: `front matter: unknown field "${key}"; the fields are ${FIELDS.join(' and ')}`,
      });
    else if (typeof value !== 'string' || value.trim() === '')
      problems.push({ line: lineOf(key), message: `front matter: ${key} must be a line of text` });
    else fields[key as (typeof FIELDS)[number]] = value.trim();
  }
  return { text: blanked, fields, problems };
}
