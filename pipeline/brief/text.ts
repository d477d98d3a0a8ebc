// How a brief's text is put together: sections, course data made safe to print, argv as a command
// line, and the sentence that names the course (the MCP prompts rewrite it for tool calls).
import { escapeControl } from '../course/course.ts';

/** A `## title` section of the lines given (null: left out; '': a blank line), or nothing when none is given. */
export function section(title: string, lines: ReadonlyArray<string | null | false>): string {
  const kept = lines.filter((line): line is string => typeof line === 'string');
  return kept.every((line) => line === '') ? '' : `## ${title}\n\n${kept.join('\n').trim()}`;
}

/** Course data (a title, a finding, a digest) as text: newlines and tabs kept, every other control character escaped. */
export function clean(text: string): string {
  return text
    .split('\n')
    .map((line) => escapeControl(line.replace(/\t/g, '  ')))
    .join('\n');
}

/** One line of course data: every control character escaped (a title, a summary, a note). */
export function oneLine(text: string): string {
  return escapeControl(text);
}

/** An argv as a shell would take it: arguments with spaces or quotes are single-quoted. */
export function commandLine(argv: readonly string[]): string {
  // The node verify runs is the CLI's own, an absolute path on this machine; a worker types `node`.
  const shown = argv.map((arg, index) => (index === 0 && /^\/.*\/node$/.test(arg) ? 'node' : arg));
  return shown.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The sentence naming the course; the MCP prompts rewrite it (`course` argument instead of --course). */
export function courseSentence(root: string): string {
  return `The course folder is ${root}; give --course ${root} to every codelabgen command below.`;
}

/** The status block a worker ends its answer with. */
export function statusBlock(status: Record<string, unknown>): string {
  return `\`\`\`json\n${JSON.stringify(status)}\n\`\`\``;
}
