// `new module`, `new lesson` and `init --example`: a curriculum entry with derived ids and slugs,
// registered as `register` does (one lessons.register event), and the lesson's folder and spec
// copied from templates/<runtime>/. Everything is decided before anything is written.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import {
  CurriculumParser,
  parseData,
  parseYamlText,
  readTextFile,
  runtimeEntry,
  TEMPLATE_RUNTIMES,
  templateRuntimeList,
} from '../../content-schemas/fast.ts';
import type {
  Curriculum,
  CurriculumLesson,
  CurriculumModule,
  RegisteredLesson,
  State,
} from '../../content-schemas/index.ts';
import { ARTIFACTS, CONTROL_CHARACTER, abs, insideCourse, printable, type Course } from '../course/course.ts';
import { loadConfig } from '../course/config.ts';
import { refuse } from '../course/errors.ts';
import { curriculumLessons, readCurriculum } from '../artifacts/curriculum.ts';
import { decideRegister } from '../protocol/register.ts';
import { type ChangeDraft, commitChange } from '../store/commit.ts';
import type { CourseWrite } from '../store/staged-change.ts';

export type NewEntry =
  | { kind: 'module'; title: string; slug?: string | undefined; lessonTitle: string }
  | { kind: 'lesson'; moduleId: string; title: string; slug?: string | undefined };

export interface Addition {
  curriculum: Curriculum;
  moduleId: string;
  lessonId: string;
}

export interface AddedLesson {
  seq: number;
  lesson: RegisteredLesson;
  runtime: string;
  /** Course-relative paths of the files written from the template, the spec last. */
  files: string[];
}

/** "Readable streams & más" → "readable-streams-mas"; "" when nothing usable is left. */
export function slugify(title: string): string {
  const words =
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? [];
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > 60) break;
    slug = next;
  }
  return slug;
}

/** The curriculum with the entry appended (ids: next number; slugs: from titles). Pure; may refuse. */
export function addToCurriculum(current: Curriculum | null, entry: NewEntry, courseTitle: string): Addition {
  const what = `new ${entry.kind}`;
  const title = checkedTitle(entry.title, what);
  const slug = checkedSlug(entry.slug, title, what);
  const modules = current?.modules ?? [];
  if (entry.kind === 'module') {
    const sameSlug = modules.find((module) => module.slug === slug);
    if (sameSlug)
      refuse(
        `${what}: module ${sameSlug.id} "${printable(sameSlug.title)}" already has the slug "${slug}"`,
        'choose another title, or pass --slug SLUG',
      );
    const moduleId = String(
      nextNumber(
        modules.map((module) => module.id),
        /^(\d+)$/,
      ),
    );
    const lessonTitle = checkedTitle(entry.lessonTitle, `${what}: --lesson`);
    const lesson = newLesson(`${moduleId}.1`, slugify(lessonTitle) || 'lesson', lessonTitle);
    const module: CurriculumModule = { id: moduleId, slug, title, summary: '', lessons: [lesson] };
    const curriculum = current
      ? { ...current, modules: [...modules, module] }
      : { title: courseTitle, summary: '', audience: '', modules: [module] };
    return { curriculum, moduleId, lessonId: lesson.id };
  }
  const target = modules.find((module) => module.id === entry.moduleId);
  if (!target) {
    if (modules.length === 0)
      refuse(
        `${what}: no module "${printable(entry.moduleId)}": ${ARTIFACTS.curriculum} has no modules yet`,
        'add one first: codelabgen new module "Module title"',
      );
    refuse(
      `${what}: no module "${printable(entry.moduleId)}" in ${ARTIFACTS.curriculum} (modules: ${modules.map((module) => module.id).join(', ')})`,
      'pass one of those ids, or add a module: codelabgen new module "Module title"',
    );
  }
  const sameSlug = target.lessons.find((lesson) => lesson.slug === slug);
  if (sameSlug)
    refuse(
      `${what}: lesson ${sameSlug.id} "${printable(sameSlug.title)}" of module ${target.id} already has the slug "${slug}"`,
      'choose another title, or pass --slug SLUG',
    );
  const escaped = target.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lessonId = `${target.id}.${nextNumber(
    target.lessons.map((lesson) => lesson.id),
    new RegExp(`^${escaped}\\.(\\d+)$`),
  )}`;
  const taken = modules.flatMap((module) => module.lessons).find((lesson) => lesson.id === lessonId);
  if (taken)
    refuse(
      `${what}: the next id of module ${target.id}, ${lessonId}, is already used by "${printable(taken.title)}"`,
      `renumber that lesson in ${ARTIFACTS.curriculum}, then retry`,
    );
  const lesson = newLesson(lessonId, slug, title);
  const changed = modules.map((module) =>
    module === target ? { ...module, lessons: [...module.lessons, lesson] } : module,
  );
  return { curriculum: { ...current!, modules: changed }, moduleId: target.id, lessonId };
}

function newLesson(id: string, slug: string, title: string): CurriculumLesson {
  return { id, slug, title, summary: '', objectives: [], prerequisites: [], topics: [] };
}

function checkedTitle(given: string, what: string): string {
  const title = given.trim();
  if (title === '') refuse(`${what}: the title is empty`);
  const control = CONTROL_CHARACTER.exec(given);
  if (control)
    refuse(
      `${what}: the title has a ` +
        `${control[0] === '\n' || control[0] === '\r' ? 'line break' : 'control character'} ("` +
        `${printable(control[0])}" at character ${control.index + 1}); a title is one line of plain text`,
    );
  if (title.length > 300) refuse(`${what}: the title is ${title.length} characters; the limit is 300`);
  return title;
}

function checkedSlug(given: string | undefined, title: string, what: string): string {
  if (given === undefined) {
    const slug = slugify(title);
    if (slug === '')
      refuse(
        `${what}: no slug can be made from the title "${printable(title)}" (it has no letters or digits a-z, 0-9)`,
        'pass one: --slug my-slug',
      );
    return slug;
  }
  if (given.length > 80 || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(given))
    refuse(
      `${what}: --slug "${printable(given)}" is not a lowercase kebab-case slug like "readable-streams" (at most 80 characters)`,
    );
  return given;
}

/** One more than the largest number any id captures with `pattern`; 1 when none does. */
function nextNumber(ids: readonly string[], pattern: RegExp): number {
  const numbers = ids
    .map((id) => pattern.exec(id)?.[1])
    .filter((n) => n !== undefined)
    .map(Number);
  return Math.max(0, ...numbers) + 1;
}

/** curriculum.yaml as block YAML; every string JSON-quoted (valid YAML), empty optional fields left out. */
export function renderCurriculum(curriculum: Curriculum): string {
  const q = (value: string) => JSON.stringify(value);
  const list = (values: readonly string[]) => `[${values.map(q).join(', ')}]`;
  const lines = [
    '# Modules and lessons in teaching order; `codelabgen schema show curriculum`.',
    `title: ${q(curriculum.title)}`,
  ];
  if (curriculum.summary) lines.push(`summary: ${q(curriculum.summary)}`);
  if (curriculum.audience) lines.push(`audience: ${q(curriculum.audience)}`);
  lines.push('modules:');
  for (const module of curriculum.modules) {
    lines.push(`  - id: ${q(module.id)}`, `    slug: ${module.slug}`, `    title: ${q(module.title)}`);
    if (module.summary) lines.push(`    summary: ${q(module.summary)}`);
    lines.push('    lessons:');
    for (const lesson of module.lessons) {
      lines.push(`      - id: ${q(lesson.id)}`, `        slug: ${lesson.slug}`, `        title: ${q(lesson.title)}`);
      if (lesson.summary) lines.push(`        summary: ${q(lesson.summary)}`);
      if (lesson.objectives.length > 0)
        lines.push('        objectives:', ...lesson.objectives.map((objective) => `          - ${q(objective)}`));
      if (lesson.prerequisites.length > 0) lines.push(`        prerequisites: ${list(lesson.prerequisites)}`);
      if (lesson.topics.length > 0) lines.push(`        topics: ${list(lesson.topics)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * curriculum.yaml's text with the addition made through `yaml`'s document API: the author's
 * comments, key order, quoting, anchors and aliases stay as they were, only the new module or
 * lesson is added, and the indentation of sequences follows the file's own (`layoutOf`). Without a
 * file the whole curriculum is rendered. Refuses, changing nothing, when the edit would not read
 * back as the new curriculum (the check the CLI's reader makes, js-yaml and the schema).
 */
export function editCurriculum(text: string | null, addition: Addition, entry: NewEntry): string {
  if (text === null) return renderCurriculum(addition.curriculum);
  const cannot = (why: string): never =>
    refuse(
      `new ${entry.kind}: ${ARTIFACTS.curriculum} cannot be edited in place: ${why}`,
      `add the ${entry.kind} to ${ARTIFACTS.curriculum} by hand, then run: codelabgen register`,
    );
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return cannot(doc.errors[0]!.message.split('\n')[0]!);
  const modules = doc.get('modules', true);
  if (!isSeq(modules)) return cannot('its modules are not a YAML sequence');
  const module = addition.curriculum.modules.find((candidate) => candidate.id === addition.moduleId)!;
  const lesson = module.lessons.find((candidate) => candidate.id === addition.lessonId)!;
  if (entry.kind === 'module') {
    modules.add(doc.createNode(sparse({ ...module, lessons: [sparse(lesson)] })));
  } else {
    const target = modules.items.find((item) => isMap(item) && item.get('id') === addition.moduleId);
    const lessons = isMap(target) ? target.get('lessons', true) : undefined;
    if (!isSeq(lessons)) return cannot(`the lessons of module ${addition.moduleId} are not a YAML sequence of its own`);
    lessons.add(doc.createNode(sparse(lesson)));
  }
  const edited = doc.toString({ ...layoutOf(doc, text), lineWidth: 0, flowCollectionPadding: false });
  if (!readsAs(edited, addition.curriculum)) return cannot('the edited file would not read back as the new curriculum');
  return edited;
}

/**
 * How the file indents its block sequences, from `modules:` and its first item: `modules:\n    - id`
 * is indent 4, `modules:\n- id` an unindented sequence. `yaml` writes one indent for the whole file
 * (its default, 2, when the modules are a flow sequence).
 */
function layoutOf(doc: Document, text: string): { indent: number; indentSeq: boolean } {
  const root = doc.contents;
  const pair = isMap(root) ? root.items.find((item) => isScalar(item.key) && item.key.value === 'modules') : undefined;
  const key = pair?.key;
  const value = pair?.value;
  if (!isScalar(key) || !isSeq(value) || value.flow || !key.range || !value.range)
    return { indent: 2, indentSeq: true };
  const column = (offset: number) => offset - text.lastIndexOf('\n', offset - 1) - 1;
  const indent = column(value.range[0]) - column(key.range[0]);
  return indent > 0 ? { indent, indentSeq: true } : { indent: 2, indentSeq: false };
}

function readsAs(text: string, curriculum: Curriculum): boolean {
  try {
    return isDeepStrictEqual(
      parseData(CurriculumParser, parseYamlText(text, ARTIFACTS.curriculum), ARTIFACTS.curriculum),
      curriculum,
    );
  } catch {
    return false;
  }
}

/** An entry without its empty optional fields (as renderCurriculum leaves them out). */
function sparse<T extends object>(entry: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(entry).filter(([, value]) => value !== '' && !(Array.isArray(value) && value.length === 0)),
  ) as Partial<T>;
}

/** Refuses a runtime without a lesson template (before anything is written). */
export function requireTemplate(runtime: string, what: string): void {
  if (!(TEMPLATE_RUNTIMES as readonly string[]).includes(runtime))
    refuse(
      `${what}: there is no lesson template for runtime ${runtime}; templates exist for ${templateRuntimeList('and')}`,
      `set runtime: ${templateRuntimeList('or')} in ${ARTIFACTS.config}, or write the lesson folder by hand`,
    );
}

/** A file of the package's templates/ (e.g. `ci/github-pages.yml`, the deploy workflow). */
export function templateFile(relative: string): string {
  return path.join(templatesDir(), relative);
}

/** templates/ of the installed package: beside dist/ in the bundle, at the repository root from source. */
function templatesDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'templates', 'node', 'spec.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('templates/ not found above the codelabgen code');
    dir = parent;
  }
  return path.join(dir, 'templates');
}

/** Course-relative path → text of the lesson's files and spec, placeholders filled. */
export function renderLessonTemplate(runtime: string, lesson: RegisteredLesson): Map<string, string> {
  const folder = runtimeEntry(runtime)?.template;
  if (!folder) throw new Error(`runtime ${runtime} has no lesson template (requireTemplate refuses it first)`);
  const root = path.join(templatesDir(), folder);
  const fill = (text: string) =>
    text
      .replaceAll('{{id}}', lesson.id)
      .replaceAll('{{title_json}}', JSON.stringify(lesson.title))
      .replaceAll('{{title}}', lesson.title);
  const files = new Map<string, string>();
  const lessonRoot = path.join(root, 'lesson');
  const rels = readdirSync(lessonRoot, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(lessonRoot, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  for (const rel of rels.sort()) {
    files.set(`${lesson.dir}/${rel}`, fill(readFileSync(path.join(lessonRoot, rel), 'utf8')));
  }
  files.set(ARTIFACTS.lessonSpec(lesson.id), fill(readFileSync(path.join(root, 'spec.yaml'), 'utf8')));
  return files;
}

export interface PlannedEntry extends ChangeDraft {
  added: Omit<AddedLesson, 'seq'>;
}

/**
 * The change that adds the entry, decided on `state` before anything is written: curriculum.yaml
 * edited, the lesson's files and spec from the template, and the lessons.register event. Refuses
 * (nothing written) when the lesson's folder or spec already exists.
 */
export function planCurriculumEntry(
  course: Course,
  state: State,
  entry: NewEntry,
  runtime: string,
  what = `new ${entry.kind}`,
): PlannedEntry {
  const exists = existsSync(abs(course, ARTIFACTS.curriculum));
  const current = exists ? readCurriculum(course) : null;
  const addition = addToCurriculum(current, entry, state.title);
  const lessons = curriculumLessons(course, addition.curriculum);
  const lesson = lessons.find((candidate) => candidate.id === addition.lessonId)!;
  const plan = decideRegister(state, lessons, false);
  const files = renderLessonTemplate(runtime, lesson);
  for (const taken of [lesson.dir, ARTIFACTS.lessonSpec(lesson.id)]) {
    if (existsSync(insideCourse(course, taken, `${what}: lesson ${lesson.id}`)))
      refuse(
        `${what}: ${taken} already exists; lesson ${lesson.id} would overwrite it`,
        'move it away, or add the lesson to curriculum.yaml by hand and run: codelabgen register',
      );
  }
  const text = exists ? readTextFile(abs(course, ARTIFACTS.curriculum), ARTIFACTS.curriculum) : null;
  const writes: CourseWrite[] = [
    { path: ARTIFACTS.curriculum, data: editCurriculum(text, addition, entry) },
    ...[...files].map(([file, data]) => ({ path: file, data })),
  ];
  return { draft: plan.draft, writes, added: { lesson, runtime, files: [...files.keys()] } };
}

/**
 * Adds the entry under the course lock as one change (pipeline/store/staged-change.ts):
 * curriculum.yaml, the lesson's files and spec are moved into place only once the lessons.register
 * event is durable, and a failure at any step leaves none of them.
 */
export async function addCurriculumEntry(course: Course, entry: NewEntry, command: string): Promise<AddedLesson> {
  const what = `new ${entry.kind}`;
  const runtime = loadConfig(course).runtime;
  requireTemplate(runtime, what);
  let added: Omit<AddedLesson, 'seq'> | undefined;
  const committed = await commitChange(course, { command, what }, (state) => {
    const planned = planCurriculumEntry(course, state, entry, runtime);
    added = planned.added;
    return planned;
  });
  return { seq: committed.event.seq, ...added! };
}
