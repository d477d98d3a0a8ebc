// A phase worker's brief (researcher, source-finder, topic-extractor, curriculum-designer): the
// phase's artifacts with their paths and schemas, what to read first, what is still missing
// (the phase's actions, as `state next` lists them) and the status to end with.
import { existsSync, statSync } from 'node:fs';
import type { Phase, State } from '../../content-schemas/index.ts';
import { phaseActions } from '../artifacts/phase-actions.ts';
import { ARTIFACTS, abs, type Course } from '../course/course.ts';
import { nextPhase, type PhaseAction } from '../protocol/phases.ts';
import type { PhaseRole } from './roles.ts';
import { schemaOutline } from './schema-outline.ts';
import { courseSentence, oneLine, section, statusBlock } from './text.ts';

interface PhaseArtifact {
  path: string;
  what: string;
  /** The schema of a data file (`schema show`), or none for markdown. */
  schema?: string;
  optional?: boolean;
}

/** What each briefed phase's worker writes (docs/protocol.md, "Course layout" and "Phases"). */
export const PHASE_ARTIFACTS: Readonly<Record<string, readonly PhaseArtifact[]>> = {
  recon: [
    {
      path: ARTIFACTS.overview,
      what:
        'the research overview (markdown, not empty): what the topic covers, its current versions and APIs, ' +
        'what learners trip on, where the good sources are',
    },
    {
      path: ARTIFACTS.deprecations,
      what: 'deprecated or legacy APIs the course must not teach, each with its replacement (markdown)',
      optional: true,
    },
  ],
  sources: [
    {
      path: ARTIFACTS.sources,
      what:
        'the candidate sources, one JSON object a line; status accepted for the ones you recommend (the user ' +
        'approves the list at gate_sources), rejected with a reason for the others',
      schema: 'source',
    },
    {
      path: ARTIFACTS.sourceDigest('<id>'),
      what:
        'a digest of each accepted source (markdown, not empty): what it says that the course needs, in its ' +
        'own terms, with links to its sections; lesson workers read these digests',
    },
  ],
  topics: [
    {
      path: ARTIFACTS.topics('<source-id>'),
      what: "the topics of each accepted source, one JSON object a line (at least one): the ids the curriculum lists in its lessons' topics",
      schema: 'topic',
    },
  ],
  curriculum: [
    {
      path: ARTIFACTS.curriculum,
      what:
        'modules and lessons in teaching order, each lesson with its summary, objectives, prerequisites ' +
        '(earlier lessons) and topics; register creates a folder per lesson from it',
      schema: 'curriculum',
    },
    {
      path: ARTIFACTS.plan,
      what: 'the plan for the user to approve at gate_plan (markdown, not empty): why this order, what each module builds',
    },
    {
      path: ARTIFACTS.glossary,
      what: 'terms the lessons use, one JSON object a line',
      schema: 'glossary-entry',
      optional: true,
    },
  ],
};

/** What a phase worker reads before it writes. */
const READS: Readonly<Record<string, readonly string[]>> = {
  recon: [],
  sources: [ARTIFACTS.overview, ARTIFACTS.deprecations],
  topics: [ARTIFACTS.sources, ARTIFACTS.sourceDigest('<id>')],
  curriculum: [ARTIFACTS.overview, ARTIFACTS.deprecations, ARTIFACTS.sources, ARTIFACTS.topics('<source-id>')],
};

export interface PhaseFacts {
  kind: 'phase';
  role: PhaseRole;
  phase: Phase;
  courseTitle: string;
  topic: string | null;
  coursePhase: Phase;
  /** The phase's actions now (as `state next` lists them), when it is the course's phase. */
  actions: PhaseAction[];
  /** Course-relative files to read that exist, with their size in bytes. */
  reads: Array<{ path: string; bytes: number }>;
}

export function readPhaseFacts(course: Course, state: State, role: PhaseRole, phase: Phase): PhaseFacts {
  const reads = (READS[phase] ?? []).flatMap((file) =>
    file.includes('<') ? expand(course, file) : existsSync(abs(course, file)) ? [file] : [],
  );
  return {
    kind: 'phase',
    role,
    phase,
    courseTitle: state.title,
    topic: state.topic,
    coursePhase: state.phase,
    actions: state.phase === phase ? phaseActions(course, state, phase) : [],
    reads: reads.map((file) => ({ path: file, bytes: statSync(abs(course, file)).size })),
  };
}

/** The files a pattern like `.codelabgen/sources/<id>.md` names that exist (a folder listing). */
function expand(course: Course, pattern: string): string[] {
  const folder = pattern.slice(0, pattern.lastIndexOf('/'));
  const suffix = pattern.slice(pattern.lastIndexOf('>') + 1);
  if (!existsSync(abs(course, folder))) return [];
  const { readdirSync } = process.getBuiltinModule('node:fs');
  return readdirSync(abs(course, folder))
    .filter((name) => name.endsWith(suffix))
    .sort()
    .map((name) => `${folder}/${name}`);
}

export function phaseArtifacts(phase: Phase): string[] {
  return (PHASE_ARTIFACTS[phase] ?? []).filter((artifact) => !artifact.optional).map((artifact) => artifact.path);
}

export function renderPhaseBrief(facts: PhaseFacts, root: string): string {
  const { role, phase } = facts;
  const artifacts = PHASE_ARTIFACTS[phase] ?? [];
  return [
    [
      `You are the ${role.role} of phase ${phase} of the course ` +
        `"${oneLine(facts.courseTitle)}"${facts.topic ? ` (topic: ${oneLine(facts.topic)})` : ''}. ` +
        `${courseSentence(root)}`,
      facts.coursePhase === phase
        ? ''
        : `Note: the course is at phase ${facts.coursePhase}; the work of ${phase} is checked when it is the current phase.`,
    ]
      .filter((line) => line !== '')
      .join('\n\n'),
    section(
      'Write',
      artifacts.map((artifact) => `- ${artifact.path}${artifact.optional ? ' (optional)' : ''}: ${artifact.what}`),
    ),
    section(
      'Schemas',
      artifacts
        .filter((artifact) => artifact.schema)
        .map((artifact) => `${schemaOutline(artifact.schema as string)}\n`),
    ).trimEnd(),
    section(
      'Read first',
      facts.reads.map((file) => `- ${file.path} (${file.bytes} bytes)`),
    ),
    section('What the phase still needs', [
      ...facts.actions.map(
        (action) =>
          `- ${action.description}${action.path ? ` (${action.path})` : ''}: ${action.done ? 'done' : action.problems.map(oneLine).join('; ')}`,
      ),
      facts.actions.length > 0 && nextPhase(phase) !== null
        ? `Once every action is done, the orchestrator moves on with codelabgen state phase ${nextPhase(phase)}.`
        : null,
    ]),
    section('While you work', [
      'Only the orchestrator changes the course state; you write files.',
      'Log a notable fact (an unreachable source, a paywall): codelabgen state log source-unreachable',
    ]),
    section('End with', [
      'End your answer with your status as one JSON block (schema: codelabgen schema show worker-status); a ' +
        'phase worker names its phase, no lesson and no stage:',
      statusBlock({ phase, status: 'ok', artifacts: phaseArtifacts(phase), notes: '<one line>' }),
      'When you cannot finish, status is "failed" (or "needs-user") and notes says why.',
    ]),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
