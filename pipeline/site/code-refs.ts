// Readalong code references (docs/conventions.md): a fenced block whose info string names
// `file=` (and optionally `lines=`, `mark=`) shows the real lines of the lesson's tested file.
import path from 'node:path';
import { MAX_DATA_FILE_BYTES, readRegularFile, UnreadableFileError } from '../../content-schemas/fast.ts';
import { fileInside, OutsideError } from '../course/confined.ts';
import type { Fence } from './fences.ts';

export interface CodeRef {
  file: string;
  from: number | null;
  to: number | null;
  mark: number[];
}

export interface ResolvedRef {
  file: string;
  lang: string;
  code: string;
  startLine: number;
  endLine: number;
  mark: number[];
}

/** Thrown for a reference the site cannot show; the message names what is wrong. */
export class CodeRefError extends Error {}

/** The reference in a fence's info string, or null when it has no `file=`. */
export function parseCodeRef(fence: Fence): CodeRef | null {
  const words = `${fence.lang} ${fence.meta}`.trim().split(/\s+/);
  const attrs = new Map<string, string>();
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq > 0) attrs.set(word.slice(0, eq), word.slice(eq + 1).replace(/^["']|["']$/g, ''));
  }
  const file = attrs.get('file');
  if (file === undefined) return null;
  const lines = attrs.get('lines');
  const range = lines === undefined ? null : parseRange(lines);
  if (lines !== undefined && range === null) throw new CodeRefError(`lines=${lines} is not a range like 10-24 or 12`);
  const mark = attrs.get('mark');
  const marked = mark === undefined ? [] : parseMarks(mark);
  return { file, from: range?.[0] ?? null, to: range?.[1] ?? null, mark: marked };
}

function parseRange(text: string): [number, number] | null {
  const match = /^([1-9][0-9]*)(?:-([1-9][0-9]*))?$/.exec(text);
  if (!match) return null;
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  return to >= from ? [from, to] : null;
}

function parseMarks(text: string): number[] {
  const marks: number[] = [];
  for (const part of text.split(',')) {
    const range = parseRange(part.trim());
    if (range === null) throw new CodeRefError(`mark=${text} is not a list of lines like 12-14,18`);
    for (let n = range[0]; n <= range[1]; n++) marks.push(n);
  }
  return marks;
}

/** Reads the referenced lines from the lesson folder; throws CodeRefError when they are not there. */
export function resolveCodeRef(lessonDir: string, ref: CodeRef, fence: Fence): ResolvedRef {
  const label = `file=${ref.file}${ref.from === null ? '' : ` lines=${ref.from}-${ref.to}`}`;
  if (ref.file.includes('\0') || path.isAbsolute(ref.file) || ref.file.split(/[\\/]/).includes('..')) {
    throw new CodeRefError(`${label}: the path must be relative to the lesson folder, without ".."`);
  }
  if (fence.body.trim() !== '')
    throw new CodeRefError(`${label}: the block must be empty (the site fills it from the file)`);
  let text: string;
  try {
    const real = fileInside(lessonDir, ref.file);
    if (real === null) throw new Error('not a regular file');
    text = readRegularFile(real, MAX_DATA_FILE_BYTES, { noFollow: true }).toString('utf8');
  } catch (error) {
    if (error instanceof OutsideError)
      throw new CodeRefError(
        `${label}: resolves outside the lesson folder (through a symbolic link); only the lesson's own files are shown`,
      );
    if (error instanceof UnreadableFileError) throw new CodeRefError(`${label}: the file ${error.reason}`);
    throw new CodeRefError(`${label}: no such file in the lesson folder`);
  }
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  const from = ref.from ?? 1;
  const to = ref.to ?? lines.length;
  if (to > lines.length) throw new CodeRefError(`${label}: the file has only ${lines.length} lines`);
  const outside = ref.mark.find((n) => n < from || n > to);
  if (outside !== undefined) throw new CodeRefError(`${label}: mark line ${outside} is outside the range shown`);
  return {
    file: ref.file,
    lang: fenceLang(fence) ?? langOf(ref.file),
    code: lines.slice(from - 1, to).join('\n'),
    startLine: from,
    endLine: to,
    mark: ref.mark,
  };
}

function fenceLang(fence: Fence): string | null {
  return fence.lang === '' || fence.lang.includes('=') ? null : fence.lang;
}

const LANGS: Record<string, string> = {
  ts: 'ts',
  mts: 'ts',
  cts: 'ts',
  tsx: 'tsx',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'jsx',
  py: 'python',
  json: 'json',
  md: 'md',
  yaml: 'yaml',
  yml: 'yaml',
  sh: 'sh',
  toml: 'toml',
  html: 'html',
  css: 'css',
  rs: 'rust',
  go: 'go',
  sql: 'sql',
  txt: 'txt',
};

/** Shiki language for a file name (plain text when unknown). */
export function langOf(file: string): string {
  const ext = path.extname(file).slice(1).toLowerCase();
  return LANGS[ext] ?? (path.basename(file) === 'Dockerfile' ? 'docker' : 'txt');
}
