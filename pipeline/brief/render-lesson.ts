// A lesson worker's brief as text, from its facts (facts.ts): pure. What every role gets (the
// lesson, its files, the test command, prerequisites, sources, the status to end with) and what
// one role needs (the spec's schema, the failing run, the rework, the review checklist).
import path from 'node:path';
import { DOC_KINDS, docFiles, docNounList } from '../../content-schemas/index.ts';
import { ARTIFACTS } from '../course/course.ts';
import { conventionLines } from './conventions.ts';
import type { LessonFacts, LessonFile } from './facts.ts';
import { schemaOutline } from './schema-outline.ts';
import { clean, commandLine, courseSentence, oneLine, section, statusBlock } from './text.ts';

/** Course-relative paths the worker writes (the status lists them as artifacts). */
export function filesToWrite(facts: LessonFacts): string[] {
  const { lesson, spec } = facts;
  switch (facts.role.role) {
    case 'example-designer':
      return [ARTIFACTS.lessonSpec(lesson.id)];
    case 'code-author':
      return (spec?.files ?? []).map((file) => `${lesson.dir}/${file.path}`);
    case 'code-fixer':
      return [];
    default: {
      // A doc writer writes the docs whose kind names its role (content-schemas/doc-kinds.ts); the reviewer its review.
      const docs = DOC_KINDS.filter((kind) => kind.writer === facts.role.role);
      if (docs.length === 0) return [ARTIFACTS.lessonReview(lesson.id)];
      return docs.map((kind) => `${lesson.dir}/${docFiles(kind)[0]}`);
    }
  }
}

export function renderLessonBrief(facts: LessonFacts, root: string): string {
  return [
    header(facts, root),
    work(facts),
    theLesson(facts),
    files(facts),
    tests(facts),
    facts.role.role === 'code-fixer' ? failingRun(facts) : '',
    rework(facts),
    facts.role.role === 'lesson-reviewer' ? reviewChecklist(facts) : '',
    section('Conventions', conventionLines(facts)),
    prerequisites(facts),
    sources(facts),
    whileYouWork(facts),
    endWith(facts),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

function header(facts: LessonFacts, root: string): string {
  const { lesson, role } = facts;
  return [
    `You are the ${role.role} of lesson ${lesson.id} ("${oneLine(lesson.title)}", module ` +
      `${lesson.module_id} "${oneLine(lesson.module_title)}") of the course ` +
      `"${oneLine(facts.courseTitle)}". ${courseSentence(root)}`,
    lesson.stage === role.stage
      ? ''
      : `Note: the lesson is at stage ${lesson.stage}; a ${role.role} works on lessons at ${role.stage}.`,
    lesson.blocked
      ? `Note: the lesson is blocked (${oneLine(lesson.blocked.reason)}); the orchestrator must unblock it first.`
      : '',
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}

const WORK: Readonly<Record<string, string>> = {
  'example-designer':
    'Design the example this lesson teaches with and write its spec: the goal, the objectives, the files ' +
    'the code-author writes and the behaviours the tests check.',
  'code-author':
    "Write the lesson's code and its tests as the spec asks, in the lesson folder. Run the tests until they pass.",
  'code-fixer':
    "The lesson's tests fail (the run below). Find the cause and fix the code (or a test that checks the " +
    'wrong thing, saying so in your notes) until the test command passes. Do not weaken what the spec ' +
    'asks the tests to check.',
  'readalong-writer':
    "Write the readalong: a walk through the lesson's verified code, step by step, each step a heading, a code reference and the prose on what those lines do.",
  'notes-writer':
    "Write the lesson's notes: the explanation a learner reads after the readalong (concepts, why, " +
    'pitfalls), with code references and diagrams where they help.',
  'lesson-reviewer':
    'Review the lesson (spec, code, tests, readalong, notes) against its objectives and the checklist below, and write review.md with your verdict.',
};

function work(facts: LessonFacts): string {
  const writes = filesToWrite(facts);
  return section('Your work', [
    WORK[facts.role.role] ?? facts.role.work,
    writes.length > 0
      ? `Write: ${writes.join(', ')}.`
      : facts.role.role === 'code-author'
        ? `Write: the code and its tests in ${facts.lesson.dir}/ (every file outside docs/ is lesson code).`
        : `Change: the lesson code in ${facts.lesson.dir}/ (outside docs/).`,
  ]);
}

function theLesson(facts: LessonFacts): string {
  const { spec, curriculum, lesson } = facts;
  const objectives = spec?.objectives.length ? spec.objectives : (curriculum?.objectives ?? []);
  const specLine =
    spec !== null
      ? `Spec: ${ARTIFACTS.lessonSpec(lesson.id)}.`
      : facts.specProblem !== null
        ? `Spec: ${ARTIFACTS.lessonSpec(lesson.id)} is invalid: ${oneLine(facts.specProblem)}`
        : `Spec: ${ARTIFACTS.lessonSpec(lesson.id)} does not exist yet${facts.role.role === 'example-designer' ? ' (you write it)' : ''}.`;
  return section('The lesson', [
    `Lesson ${lesson.id} "${oneLine(lesson.title)}", module ${lesson.module_id} "${oneLine(lesson.module_title)}".`,
    curriculum?.summary ? `Summary (curriculum): ${oneLine(curriculum.summary)}` : null,
    spec ? `Goal (spec): ${oneLine(spec.goal)}` : null,
    objectives.length > 0 ? `Objectives${spec?.objectives.length ? ' (spec)' : ' (curriculum)'}:` : null,
    ...objectives.map((objective) => `- ${oneLine(objective)}`),
    spec && spec.tests.length > 0 ? 'The tests check (spec):' : null,
    ...(spec?.tests ?? []).map((behaviour) => `- ${oneLine(behaviour)}`),
    spec?.network ? 'The tests may use the network (spec: network: true).' : null,
    specLine,
    spec === null && facts.role.role !== 'lesson-reviewer' ? `\n${schemaOutline('lesson-spec')}` : null,
  ]);
}

function fileLine(file: LessonFile): string {
  return `- ${oneLine(file.path)}${file.lines === null ? '' : ` (${file.lines} line${file.lines === 1 ? '' : 's'})`}`;
}

function files(facts: LessonFacts): string {
  const { lesson, spec, codeFiles, docFiles } = facts;
  const planned = spec?.files ?? [];
  return section('Files', [
    `Lesson folder: ${lesson.dir}/ (code references and spec paths are relative to it).`,
    planned.length > 0 ? 'Files the spec plans:' : null,
    ...planned.map((file) => `- ${file.path}${file.purpose ? `: ${oneLine(file.purpose)}` : ''}`),
    codeFiles.length > 0 ? 'Code files now:' : 'The folder holds no code yet.',
    ...codeFiles.map(fileLine),
    docFiles.length > 0 ? 'Docs now:' : null,
    ...docFiles.map(fileLine),
  ]);
}

function tests(facts: LessonFacts): string {
  const command = facts.testCommand;
  return section('Tests', [
    `Runtime: ${facts.runtime}${facts.spec?.runtime ? ' (set by the spec)' : ''}.`,
    'problem' in command
      ? `Test command: not known yet: ${oneLine(command.problem)}`
      : `Test command, run in ${command.cwd}/: ${commandLine(command.argv)}`,
    facts.runtime === 'node' && !('problem' in command) && command.argv[0] === 'node'
      ? 'With a package.json that has a "test" script the command becomes npm test (after npm ci when there is a lockfile).'
      : null,
    `The protocol runs it in a sandbox (no network unless the spec says network: true; writes only in the ` +
      `lesson folder): codelabgen verify ${facts.lesson.id} runs it that way and records nothing.`,
  ]);
}

function failingRun(facts: LessonFacts): string {
  const { failedRun: run, lesson, budgets } = facts;
  const left = Math.max(0, budgets.fix_attempts - lesson.fix_attempts_used);
  const budget = `Fix budget: ${left} of ${budgets.fix_attempts} attempts left (each failing verify uses one; the last blocks the lesson).`;
  if (run === null)
    return section('The failing run', [
      `No failing run is recorded for lesson ${lesson.id}: the orchestrator runs codelabgen verify ` +
        `${lesson.id} --update-state first; a code-fixer is needed only after it fails.`,
      budget,
    ]);
  const note = lesson.last_verify_failure?.note;
  return section('The failing run', [
    `Run ${run.run} (${run.file}): ` +
      `${commandLine(run.argv)}${run.timedOut ? ' (timed out)' : ''}${run.tests ? `: ${run.tests.failed} of ${run.tests.total} tests failed` : ''}.`,
    run.cause ? `Cause: ${oneLine(run.cause)}` : null,
    run.evidence
      ? `\nThe first failing test, with its expected and actual values:\n\n\`\`\`text\n${clean(run.evidence)}\n\`\`\``
      : null,
    note ? `The orchestrator's note: ${oneLine(note)}` : null,
    '',
    `The whole output tail is output_tail in ${run.file}.`,
    budget,
  ]);
}

function rework(facts: LessonFacts): string {
  const { lesson, review } = facts;
  if (!lesson.rework || facts.role.role === 'lesson-reviewer') return '';
  const findings = review?.review?.findings ?? [];
  return section('Rework', [
    `The lesson was moved back from ${lesson.rework.from} to ${lesson.rework.to} (${lesson.rework.at}): ` +
      `"${oneLine(lesson.rework.note)}". Redo your part with this in mind.`,
    findings.length > 0
      ? `The reviewer's findings (${ARTIFACTS.lessonReview(lesson.id)}, verdict ${review?.review?.verdict}):`
      : null,
    ...findings.map(
      (finding) =>
        `- ${finding.severity}${finding.where ? ` (${oneLine(finding.where)})` : ''}: ${oneLine(finding.text)}`,
    ),
  ]);
}

function reviewChecklist(facts: LessonFacts): string {
  const { lesson, review, changedSinceReview, checks } = facts;
  const round = lesson.review_rounds_used + 1;
  const previous = review?.review;
  return [
    section('Review checklist', [
      `Write ${ARTIFACTS.lessonReview(lesson.id)} with front matter lesson: "${lesson.id}", verdict: pass ` +
        `or revise, reviewer: lesson-reviewer, round: ${round}, and findings (severity ` +
        `blocker|major|minor|nit, where, text); then the review in markdown.`,
      'Check, and give a finding for each miss:',
      '- the code does what the spec and the objectives say, and the tests check the behaviours the spec lists;',
      `- every code reference of the ${docNounList()} points at the lines its prose talks about (file= ` +
        'relative to the lesson folder, lines= inside the file);',
      '- diagrams are mermaid fences or docs/diagrams/*.mmd and say what the prose says;',
      '- the readalong walks the code in order; the notes explain why, not only what, and link the prerequisites where they build on them;',
      '- nothing contradicts the sources below.',
      `codelabgen check runs these checks on the course; on this lesson now:`,
      ...(checks ?? []).map((check) =>
        check.problems.length === 0 && check.warnings.length === 0
          ? `- ${check.name}: ok`
          : `- ${check.name}: ${[...check.problems, ...check.warnings.map((warning) => `warning: ${warning}`)].map(oneLine).join('; ')}`,
      ),
      `Review rounds: ${lesson.review_rounds_used} used of ` +
        `${facts.budgets.review_rounds + (lesson.review_rounds_granted ?? 0)}; after a revise verdict the ` +
        `orchestrator moves the lesson back, which uses one.`,
    ]),
    section('Since the last review', [
      review === null
        ? 'No review yet: this is round 1.'
        : review.problem !== null
          ? `The last review.md (${review.writtenAt}) does not parse: ${oneLine(review.problem)}`
          : `The last review (${review.writtenAt}): verdict ${previous?.verdict}` +
            `${previous?.round ? `, round ${previous.round}` : ''}, ${previous?.findings.length ?? 0} finding(s):`,
      ...(previous?.findings ?? []).map(
        (finding) =>
          `- ${finding.severity}${finding.where ? ` (${oneLine(finding.where)})` : ''}: ${oneLine(finding.text)}`,
      ),
      lesson.rework
        ? `Moved back from ${lesson.rework.from} to ${lesson.rework.to} (${lesson.rework.at}): "${oneLine(lesson.rework.note)}".`
        : null,
      review !== null
        ? changedSinceReview.length > 0
          ? `Files written since: ${changedSinceReview.join(', ')}.`
          : 'No lesson file was written since.'
        : null,
    ]),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

function prerequisites(facts: LessonFacts): string {
  const docs = `${facts.lesson.dir}/docs`;
  const where = (dir: string) =>
    ` (folder ${dir}/: read its code there, never copy it; ` +
    `a doc links its notes as ${path.posix.relative(docs, `${dir}/docs/notes.md`)})`;
  return section(
    'Prerequisites',
    facts.prerequisites.map(
      (entry) =>
        `- ${entry.id} "${oneLine(entry.title)}"${entry.summary ? `: ${oneLine(entry.summary)}` : ''}` +
        (entry.dir ? where(entry.dir) : ''),
    ),
  );
}

function sources(facts: LessonFacts): string {
  return section(
    'Sources',
    facts.sources.flatMap((source) => [
      `### ${oneLine(source.title)} (${source.id}, ${source.url})`,
      `Topics of this lesson: ${source.topics.map((topic) => `${topic.id} "${oneLine(topic.title)}": ${oneLine(topic.summary)}`).join('; ')}`,
      source.excerpt
        ? `Digest (${source.digest}${source.truncated ? ', the beginning; read the rest there' : ''}):\n\n${clean(
            source.excerpt,
          )
            .split('\n')
            .map((line) => `> ${line}`)
            .join('\n')}`
        : `Digest: ${source.digest} (missing)`,
      '',
    ]),
  ).trimEnd();
}

function whileYouWork(facts: LessonFacts): string {
  const task = facts.task ?? '<task>';
  return section('While you work', [
    'Only the orchestrator changes the course state; you write files.',
    `Log a notable fact (an unreachable source, a surprising behaviour): codelabgen state log surprising-behaviour --lesson ${facts.lesson.id}`,
    `A long task renews its lease: codelabgen state task heartbeat ${task}`,
  ]);
}

/** What the stage a role reports depends on, where it is not simply the next stage. */
const REPORTS_NOTE: Readonly<Record<string, string>> = {
  'lesson-reviewer': " for verdict pass; with verdict revise it is the lesson's stage now (notes)",
  'code-fixer': ' (the lesson stays at code: verify moves it to verified)',
};

function endWith(facts: LessonFacts): string {
  const { role, lesson } = facts;
  const artifacts = filesToWrite(facts);
  const status = {
    lesson: lesson.id,
    status: 'ok',
    stage: role.reports,
    artifacts: artifacts.length > 0 ? artifacts : [`<the files you changed, relative to the course>`],
    notes: '<one line>',
  };
  return section('End with', [
    `End your answer with your status as one JSON block (schema: codelabgen schema show worker-status); ` +
      `stage is ${role.reports}${REPORTS_NOTE[role.role] ?? ''}:`,
    statusBlock(status),
    'When you cannot finish, status is "failed" (or "needs-user" for a decision only the user can make) and notes says why.',
  ]);
}
