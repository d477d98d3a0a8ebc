// The registry of the state commands (`state show` … `state task list`), in help order: the entries
// cli/commands.ts spreads into COMMANDS after `init`, so help, completion, the MCP tools and
// docs/cli.md read them from there. A command with `load` runs from the one file dist/state.cjs
// (cli/state-main.ts; docs/performance.md): the launcher's list of those is generated from here by
// `npm run docs`, and the bundle test runs each. The others load from dist/main.mjs (cli/loaders.ts).
// Adding a state command: its entry here, its module in commands/, its tests.
import { GATE_PHASES, PHASES, TASK_PHASES } from '../content-schemas/names.ts';
import { type CommandModule, type CommandSpec, JSON_OPTION, listed } from './spec.ts';

export interface StateCommandSpec extends CommandSpec {
  /** The command's module, for a command that runs from dist/state.cjs (the launcher's fast path). */
  load?: () => Promise<CommandModule>;
}

export const STATE_COMMANDS: StateCommandSpec[] = [
  {
    name: 'state show',
    load: () => import('./commands/state-show.ts'),
    summary: 'summary of the course state (--json: the whole state)',
    options: {
      ...JSON_OPTION,
      all: { type: 'boolean', help: 'list every lesson, not only those that need attention' },
    },
    examples: ['codelabgen state show', 'codelabgen state show --json'],
  },
  {
    name: 'state log',
    load: () => import('./commands/state-log.ts'),
    additive: true,
    args: '<kind>',
    positionals: { min: 1, max: 1 },
    summary: 'record a notable fact (not a state change); workers may call it',
    changesState: true,
    options: {
      lesson: { type: 'string', value: 'ID', help: 'lesson the fact is about' },
      data: { type: 'string', value: 'KEY=VALUE', multiple: true, help: 'a key=value pair (repeatable)' },
      ...JSON_OPTION,
    },
    examples: ['codelabgen state log source-unreachable --lesson 1.2 --data url=https://example.com --data status=404'],
  },
  {
    name: 'state rebuild',
    writes: true,
    idempotent: true,
    summary: 'rebuild state.json from events.jsonl',
    description:
      'Replays every event of .codelabgen/events.jsonl and rewrites state.json. Use it when state.json is ' +
      'corrupt or missing; a torn last log line is first moved aside (kept as ' +
      '.codelabgen/events.jsonl.torn-<time>).',
    options: { ...JSON_OPTION },
  },
  {
    name: 'state phase',
    load: () => import('./commands/state-phase.ts'),
    additive: true,
    args: '<next>',
    positionals: { min: 1, max: 1 },
    summary: 'move the course one phase forward (gates need --approved)',
    description:
      `Phases: ${PHASES.join(' → ')}. Only the next phase is accepted. Leaving a phase needs its required actions ` +
      `done (see \`state next\`); leaving a gate (${GATE_PHASES.join(', ')}) needs --approved; entering assembly ` +
      'needs every lesson done and none stale.',
    changesState: true,
    options: { approved: { type: 'boolean', help: 'the user approved this gate' }, ...JSON_OPTION },
    examples: ['codelabgen state phase recon', 'codelabgen state phase topics --approved'],
  },
  {
    name: 'state set',
    load: () => import('./commands/state-set.ts'),
    args: '<id> <stage>',
    positionals: { min: 2, max: 2 },
    summary: 'move a lesson one stage forward, or back to an earlier stage with --note',
    description:
      'Forward: exactly one stage, after its artifact check (verified is set only by `verify ' +
      '--update-state`). Back: any earlier stage with --note "why"; moving back from notes or reviewed uses ' +
      'one review round. The stage is the last completed one: moving back to readalong redoes the notes; to ' +
      'name the stage to redo, use `state rework <id> <stage-to-redo> --note "why"`. A blocked lesson is ' +
      'refused; moving back clears stale. In phases assembly and done a move back needs --reopen, which also ' +
      'moves the course back to phase lessons.',
    changesState: true,
    options: {
      note: { type: 'string', value: 'TEXT', help: 'why (required to move back)' },
      reopen: {
        type: 'boolean',
        help: 'in phase assembly or done: move the lesson back and the course back to phase lessons',
      },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen state set 1.2 spec',
      'codelabgen state set 1.2 code --note "review: the example hides the error path"',
      'codelabgen state rework 1.2 readalong --note "review: example 2 unclear"   # to name the stage to redo instead',
    ],
  },
  {
    name: 'state rework',
    args: '<id> <stage-to-redo>',
    positionals: { min: 2, max: 2 },
    summary: 'redo a stage: move a lesson back to the stage before it, with --note',
    description:
      "A lesson's stage is its last completed stage, so redoing readalong means moving back to verified: " +
      "`state rework 1.2 readalong` does that. The rules are a backward `state set`'s: --note is required, " +
      'moving back from notes or reviewed uses one review round, a blocked lesson is refused, and in phases ' +
      'assembly and done --reopen is needed. The stage to redo must be done already.',
    changesState: true,
    options: {
      note: { type: 'string', value: 'TEXT', help: 'why (required)' },
      reopen: { type: 'boolean', help: 'in phase assembly or done: also move the course back to phase lessons' },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen state rework 1.2 readalong --note "review: example 2 unclear"',
      'codelabgen state rework 1.2 verified --note "code changed: verify again"',
    ],
  },
  {
    name: 'state fail',
    load: () => import('./commands/state-fail.ts'),
    args: '<id>',
    positionals: { min: 1, max: 1 },
    summary: 'record a failed verification (uses one fix attempt; the last one blocks)',
    changesState: true,
    options: { note: { type: 'string', value: 'TEXT', help: 'one-line cause (required)' }, ...JSON_OPTION },
    examples: ['codelabgen state fail 1.2 --note "TypeError in parseRoute: undefined path"'],
  },
  {
    name: 'state block',
    load: () => import('./commands/state-block.ts'),
    args: '<id>',
    positionals: { min: 1, max: 1 },
    summary: 'block a lesson for a decision only the user can make',
    changesState: true,
    options: {
      reason: { type: 'string', value: 'TEXT', help: 'what the user must decide (required)' },
      ...JSON_OPTION,
    },
    examples: ['codelabgen state block 2.1 --reason "needs a paid API key"'],
  },
  {
    name: 'state unblock',
    load: () => import('./commands/state-unblock.ts'),
    additive: true,
    args: '<id>',
    positionals: { min: 1, max: 1 },
    summary: 'unblock a lesson (a fix-budget block gets a fresh fix budget)',
    changesState: true,
    options: {
      note: { type: 'string', value: 'TEXT', help: "the user's decision, recorded in the event" },
      'review-round': { type: 'boolean', help: 'the user grants one more review round (needs --note)' },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen state unblock 2.1',
      'codelabgen state unblock 1.2 --review-round --note "user: one more try at example 2"',
    ],
  },
  {
    name: 'state stale',
    load: () => import('./commands/state-stale.ts'),
    args: '<id>',
    positionals: { min: 1, max: 1 },
    summary: 'mark a done lesson stale (its upstream changed); move it back to clear it',
    changesState: true,
    options: { reason: { type: 'string', value: 'TEXT', help: 'what changed upstream (required)' }, ...JSON_OPTION },
    examples: ['codelabgen state stale 1.3 --reason "lesson 1.2 renamed parseRoute"'],
  },
  {
    name: 'state stages',
    summary: 'the lesson stages, their work, worker role and next command, as JSON',
    needsCourse: false,
    options: { ...JSON_OPTION },
  },
  {
    name: 'state watch',
    notATool: 'follows the course until interrupted; subscribe to the resources instead',
    summary: 'the live board: stages, running and interrupted tasks, what needs a human, redrawn on each change',
    description:
      'Follows .codelabgen/events.jsonl (only the new lines) and state.json until Ctrl-C. On a terminal it ' +
      'redraws a compact board: lessons per stage, running tasks with their lease, interrupted ones with what ' +
      'to do, what needs a human with the command that resolves it, and the last events. When stdout is not a ' +
      'terminal it prints one line per change. Colours only on a terminal, never with NO_COLOR.',
    options: { json: { type: 'boolean', help: 'one JSON board per line, on each change' } },
    examples: ['codelabgen state watch', 'codelabgen state watch | tee progress.log'],
  },
  {
    name: 'state next',
    load: () => import('./commands/state-next.ts'),
    summary: 'what to do next: phase actions, lesson work items, blocked, interrupted (JSON)',
    options: { ...JSON_OPTION },
    examples: ['codelabgen state next'],
  },
  {
    name: 'state task start',
    load: () => import('./commands/state-task.ts'),
    additive: true,
    args: '<lesson> | --phase P',
    positionals: { min: 0, max: 1 },
    summary: 'record that a worker started on a lesson (or, with --phase, for the current phase); prints the task id',
    changesState: true,
    options: {
      phase: {
        type: 'string',
        value: 'P',
        help: `a phase task instead of a lesson task: ${listed(TASK_PHASES, 'or')} (the current phase; --role required)`,
      },
      role: {
        type: 'string',
        value: 'R',
        help: "worker role, e.g. code-author (default: the role of the lesson's stage, as in state stages)",
      },
      lease: {
        type: 'string',
        value: 'D',
        help: 'how long it counts as running without a heartbeat, e.g. 20m, 90s, 2h (default: task_lease of config.yaml, 20m)',
      },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen state task start 1.2',
      'codelabgen state task start 1.2 --role code-author --lease 45m',
      'codelabgen state task start --phase sources --role source-researcher',
    ],
  },
  {
    name: 'state task heartbeat',
    load: () => import('./commands/state-task.ts'),
    writes: true,
    additive: true,
    args: '<task>',
    positionals: { min: 1, max: 1 },
    summary: "renew a running task's lease (the worker is alive); workers may call it",
    options: {
      lease: { type: 'string', value: 'D', help: 'new lease from now, e.g. 20m (default: task_lease of config.yaml)' },
      ...JSON_OPTION,
    },
    examples: ['codelabgen state task heartbeat t7'],
  },
  {
    name: 'state task done',
    load: () => import('./commands/state-task.ts'),
    additive: true,
    args: '<task>',
    positionals: { min: 1, max: 1 },
    summary: "record that a task finished (optionally with the worker's status JSON)",
    changesState: true,
    options: {
      note: { type: 'string', value: 'TEXT', help: 'one-line note' },
      result: {
        type: 'string',
        value: 'FILE|-',
        help: "the worker's answer or status JSON (its last JSON block is validated)",
      },
      ...JSON_OPTION,
    },
    examples: ['codelabgen state task done t7 --result answer.txt'],
  },
  {
    name: 'state task fail',
    load: () => import('./commands/state-task.ts'),
    additive: true,
    args: '<task>',
    positionals: { min: 1, max: 1 },
    summary: 'record that a task failed',
    changesState: true,
    options: {
      note: { type: 'string', value: 'TEXT', help: 'one-line cause' },
      result: {
        type: 'string',
        value: 'FILE|-',
        help: "the worker's answer or status JSON (its last JSON block is validated)",
      },
      ...JSON_OPTION,
    },
    examples: ['codelabgen state task fail t7 --note "worker timed out"'],
  },
  {
    name: 'state task reset',
    load: () => import('./commands/state-task.ts'),
    args: '<task>',
    positionals: { min: 1, max: 1 },
    summary: 'abandon a running task (e.g. interrupted by a crash), or close an open failed one',
    changesState: true,
    options: {
      note: { type: 'string', value: 'TEXT', help: 'why' },
      'if-expired': {
        type: 'boolean',
        help: 'reset a running task only when its lease has run out (interrupted); refused while a worker holds it',
      },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen state task reset t7 --note "orchestrator restarted"',
      'codelabgen state task reset t7 --if-expired --note "worker gone"',
    ],
  },
  {
    name: 'state task list',
    load: () => import('./commands/state-task.ts'),
    summary:
      'list tasks (--open: running, interrupted and failed ones; --running: running only); a running task whose lease expired shows as interrupted',
    options: {
      open: {
        type: 'boolean',
        help: 'tasks still running, interrupted (lease expired) or failed (a failed task stays open until reset or a later task on its lesson finishes)',
      },
      running: { type: 'boolean', help: 'only running tasks whose lease holds (a worker is on them)' },
      ...JSON_OPTION,
    },
    examples: ['codelabgen state task list --open --json'],
  },
];
