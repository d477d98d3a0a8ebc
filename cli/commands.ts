// The command table: every command, its options and help, loaded lazily. Help text and
// docs/cli.md are generated from this table, so they cannot drift from what the CLI accepts.
import { JSON_OPTION, type CommandSpec } from './spec.ts';

export const COMMANDS: CommandSpec[] = [
  {
    name: 'init',
    args: '[DIR]',
    positionals: { min: 0, max: 1 },
    summary: 'create a course directory (refuses an existing state)',
    description: 'Creates DIR/.codelabgen/ (DIR defaults to the working directory) with a default config.yaml, state.json and the first event. A course is never re-initialized: an existing state is refused.',
    needsCourse: false,
    changesState: true,
    options: {
      title: { type: 'string', value: 'T', help: 'course title (required)' },
      topic: { type: 'string', value: 'X', help: 'what the course is about' },
      ...JSON_OPTION,
    },
    examples: ['codelabgen init streams-course --title "Node.js streams" --topic "streams in depth"'],
    load: () => import('./commands/init.ts'),
  },
  {
    name: 'state show',
    summary: 'summary of the course state (--json: the whole state)',
    options: { ...JSON_OPTION, all: { type: 'boolean', help: 'list every lesson, not only those that need attention' } },
    examples: ['codelabgen state show', 'codelabgen state show --json'],
    load: () => import('./commands/state-show.ts'),
  },
  {
    name: 'state log',
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
    load: () => import('./commands/state-log.ts'),
  },
  {
    name: 'state rebuild',
    summary: 'rebuild state.json from events.jsonl',
    description: 'Replays every event of .codelabgen/events.jsonl and rewrites state.json. Use it when state.json is corrupt or missing; a torn last log line is cut off first.',
    options: { ...JSON_OPTION },
    load: () => import('./commands/state-rebuild.ts'),
  },
  {
    name: 'schema list',
    summary: 'list the data-file schemas',
    needsCourse: false,
    options: { ...JSON_OPTION },
    load: () => import('./commands/schema.ts'),
  },
  {
    name: 'schema show',
    args: '<name>',
    positionals: { min: 1, max: 1 },
    summary: 'print the JSON Schema (draft 2020-12) of a data file',
    needsCourse: false,
    examples: ['codelabgen schema show curriculum'],
    load: () => import('./commands/schema.ts'),
  },
  {
    name: 'check',
    summary: 'check the course: log replay, artifacts, drift (exit 1 when problems are found)',
    options: { ...JSON_OPTION },
    load: () => import('./commands/check.ts'),
  },
];
