// GitHub Actions output (under GITHUB_ACTIONS=true): `::error file=…,line=…::` annotations and the
// Markdown job summary appended to $GITHUB_STEP_SUMMARY, for `verify` and `site build`. Course text
// (test names, causes, titles) is escaped by the workflow-command rules, and a test's own output is
// printed between `::stop-commands::` markers, so a lesson cannot issue a workflow command
// (docs/deploy/README.md, "What the workflow prints").
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import path from 'node:path';

export function inGitHubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** A command's message: `%`, CR and LF are the characters the runner decodes (%25, %0D, %0A). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value (file=, title=): also `:` and `,`, which end a property (so `::` cannot end the command's head). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export interface Annotation {
  /** Absolute path; written relative to $GITHUB_WORKSPACE (the repository), as GitHub wants it. */
  file?: string | undefined;
  line?: number | undefined;
  title: string;
  message: string;
}

/** One `::error ...::message` line. */
export function errorAnnotation(annotation: Annotation, env: NodeJS.ProcessEnv, cwd: string): string {
  const properties: string[] = [];
  if (annotation.file !== undefined) {
    const relative = path
      .relative(env.GITHUB_WORKSPACE ?? cwd, annotation.file)
      .split(path.sep)
      .join('/');
    properties.push(`file=${escapeProperty(relative)}`);
    if (annotation.line !== undefined) properties.push(`line=${annotation.line}`);
  }
  properties.push(`title=${escapeProperty(annotation.title)}`);
  return `::error ${properties.join(',')}::${escapeData(annotation.message)}`;
}

/**
 * `lines` (a test's output) with workflow commands turned off around them: GitHub reads no command
 * between `::stop-commands::TOKEN` and `::TOKEN::`, and the token is random, so the output cannot end it.
 */
export function withoutCommands(lines: string[]): string[] {
  const token = `codelabgen-${randomBytes(16).toString('hex')}`;
  return [`::stop-commands::${token}`, ...lines, `::${token}::`];
}

/** Appends a Markdown section to the job summary; nothing when $GITHUB_STEP_SUMMARY is unset. */
export function appendStepSummary(env: NodeJS.ProcessEnv, markdown: string): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (file === undefined || file === '') return;
  appendFileSync(file, `${markdown.trimEnd()}\n\n`);
}

/** Course text in a Markdown table cell: one line, no pipe or HTML of its own, at most 300 characters. */
export function markdownCell(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ').trim();
  const short = line.length > 300 ? `${line.slice(0, 299)}…` : line;
  return short
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/`/g, '\\`');
}

/** A Markdown table: a header row and one row per entry, every cell already escaped. */
export function markdownTable(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
