// Hostile inputs for the fuzz test: strings for ids, notes and --data, hostile file contents
// (invalid UTF-8, YAML alias bombs, deep nesting, duplicate keys, 1 MB values), and the cases that
// feed them to every state-changing command, drawn from a seeded PRNG so a failure reproduces.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface FuzzCase {
  name: string;
  args: string[];
  input?: string | Buffer;
  /** Runs before the command: plant hostile files in the course copy (root) or outside. */
  prepare?: (root: string, outside: string) => void;
  /** Run from the parent of the course (init cases) instead of the course root. */
  fromParent?: boolean;
}

/** mulberry32: small, fast, seeded. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A single argv string may be at most 128 KiB on Linux (MAX_ARG_STRLEN); 1 MB values go through files and stdin. */
const ARG_MAX_VALUE = 120 * 1024;

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\n',
  '\r\nerror: forged line',
  '\u001b[31mred\u001b[0m',
  '\u0001\u0002\u0007\u0008\u007f\u009b',
  '\u202eevil\u202c',
  '\ud800lone surrogate',
  '😀'.repeat(40),
  '..',
  '../outside/secret.txt',
  '../../etc/passwd',
  '/etc/passwd',
  'a/../../b',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '--course',
  '-',
  '%s%n%x',
  '$(touch pwned)',
  '`touch pwned`',
  '1.1',
  '9.9',
  't1',
  't0',
  't99999999999',
  '1e309',
  '-1',
  'x'.repeat(ARG_MAX_VALUE),
  'é'.repeat(70),
];

const MB = 1024 * 1024;

/** Hostile file contents, by name. */
export const HOSTILE_FILES: Readonly<Record<string, Buffer>> = {
  'invalid-utf8': Buffer.concat([
    Buffer.from('title: '),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]),
    Buffer.from('\nmodules: []\n'),
  ]),
  'nul-bytes': Buffer.from('title: a\u0000b\nmodules:\n  - \u0000\n'),
  'alias-bomb': Buffer.from(
    [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
      'title: *i',
      '',
    ].join('\n'),
  ),
  'deep-yaml': Buffer.from(`title: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`),
  'deep-json': Buffer.from(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`),
  'dup-keys-json': Buffer.from('{"lesson":"1.1","lesson":"../x","status":"ok","status":"needs-user","stage":"code"}'),
  'dup-keys-yaml': Buffer.from('title: A\ntitle: B\nmodules: []\n'),
  'megabyte-json': Buffer.from(JSON.stringify({ lesson: '1.1', status: 'ok', stage: 'code', notes: 'x'.repeat(MB) })),
  'megabyte-yaml': Buffer.from(`title: ${'y'.repeat(MB)}\nmodules: []\n`),
  'bom-json': Buffer.from('\ufeff{"lesson":"1.1","status":"ok","stage":"code"}'),
  'proto-json': Buffer.from(
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"lesson":"1.1","status":"ok","stage":"code"}',
  ),
  'yaml-tags': Buffer.from('title: !!js/function "function(){}"\nmodules: !!binary aGVsbG8=\n'),
  empty: Buffer.alloc(0),
  'path-escape-curriculum': Buffer.from(
    [
      'title: T',
      'modules:',
      '  - id: "1"',
      '    slug: basics',
      '    title: Basics',
      '    lessons:',
      '      - {id: "1.1", slug: intro, title: Intro}',
      '      - {id: "..", slug: up, title: Up}',
      '      - {id: "1.3", slug: "../../outside", title: Out}',
      '',
    ].join('\n'),
  ),
  'valid-curriculum-more': Buffer.from(
    [
      'title: T',
      'modules:',
      '  - id: "1"',
      '    slug: basics',
      '    title: Basics',
      '    lessons:',
      '      - {id: "1.1", slug: intro, title: "Intro \\u001b[31m"}',
      '      - {id: "1.2", slug: more, title: More}',
      '      - {id: "1.3", slug: new-one, title: "New \\r\\n one"}',
      '  - id: "2"',
      '    slug: second',
      '    title: Second',
      '    lessons:',
      '      - {id: "2.1", slug: first, title: First}',
      '',
    ].join('\n'),
  ),
};

const YAML_KINDS = [
  'invalid-utf8',
  'nul-bytes',
  'alias-bomb',
  'deep-yaml',
  'dup-keys-yaml',
  'megabyte-yaml',
  'yaml-tags',
  'empty',
];
const JSON_KINDS = ['invalid-utf8', 'deep-json', 'dup-keys-json', 'megabyte-json', 'bom-json', 'proto-json', 'empty'];

/** Where a hostile file can be planted, a command that reads it, and the contents worth trying. */
const FILE_TARGETS: ReadonlyArray<{ file: string; args: string[]; kinds: string[] }> = [
  { file: '.codelabgen/curriculum.yaml', args: ['register'], kinds: YAML_KINDS },
  { file: '.codelabgen/config.yaml', args: ['state', 'fail', '1.2', '--note', 'fuzz'], kinds: YAML_KINDS },
  { file: '.codelabgen/lessons/1.1/spec.yaml', args: ['state', 'set', '1.1', 'spec'], kinds: YAML_KINDS },
  { file: 'status.json', args: ['status', 'check', 'status.json'], kinds: JSON_KINDS },
  { file: 'status.json', args: ['state', 'task', 'done', 't1', '--result', 'status.json'], kinds: JSON_KINDS },
  {
    file: '.codelabgen/state.json',
    args: ['state', 'log', 'fuzz', '--data', 'k=v'],
    kinds: ['invalid-utf8', 'deep-json', 'dup-keys-json', 'proto-json', 'empty'],
  },
  {
    file: '.codelabgen/events.jsonl',
    args: ['state', 'set', '1.2', 'pending', '--note', 'back'],
    kinds: ['invalid-utf8', 'deep-json', 'megabyte-json'],
  },
];

export function fileCases(): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const target of FILE_TARGETS) {
    for (const name of target.kinds) {
      const bytes = HOSTILE_FILES[name]!;
      cases.push({
        name: `${target.args.slice(0, 3).join(' ')} with ${name} ${target.file}`,
        args: target.args,
        prepare: (root) => plant(root, target.file, bytes),
      });
    }
  }
  for (const name of ['dup-keys-json', 'megabyte-json', 'deep-json', 'invalid-utf8']) {
    cases.push({ name: `status check - (stdin ${name})`, args: ['status', 'check', '-'], input: HOSTILE_FILES[name] });
    cases.push({
      name: `task done --result - (stdin ${name})`,
      args: ['state', 'task', 'done', 't1', '--result', '-'],
      input: HOSTILE_FILES[name],
    });
  }
  return cases;
}

function plant(root: string, relative: string, bytes: Buffer): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

/** Symlinks out of the course, and paths that point outside it. */
export function escapeCases(): FuzzCase[] {
  const linkTo =
    (relative: string, target: (outside: string) => string, dir = false) =>
    (root: string, outside: string) => {
      const link = path.join(root, relative);
      rmSync(link, { recursive: true, force: true });
      mkdirSync(path.dirname(link), { recursive: true });
      symlinkSync(target(outside), link, dir ? 'dir' : 'file');
    };
  return [
    {
      name: 'register with curriculum.yaml symlinked outside',
      args: ['register'],
      prepare: linkTo('.codelabgen/curriculum.yaml', (o) => path.join(o, 'curriculum.yaml')),
    },
    {
      name: 'register with a lesson folder symlinked outside',
      args: ['register'],
      prepare: linkTo('1-basics/1.2-more', (o) => path.join(o, 'dir'), true),
    },
    {
      name: 'register with a module folder symlinked outside',
      args: ['register'],
      prepare: linkTo('1-basics', (o) => path.join(o, 'dir'), true),
    },
    {
      name: 'register with curriculum escaping by ids and slugs',
      args: ['register'],
      prepare: (root) => plant(root, '.codelabgen/curriculum.yaml', HOSTILE_FILES['path-escape-curriculum']!),
    },
    {
      name: 'register with new lessons (creates folders)',
      args: ['register'],
      prepare: (root) => plant(root, '.codelabgen/curriculum.yaml', HOSTILE_FILES['valid-curriculum-more']!),
    },
    {
      name: 'state set spec with spec.yaml symlinked outside',
      args: ['state', 'set', '1.1', 'spec'],
      prepare: linkTo('.codelabgen/lessons/1.1/spec.yaml', (o) => path.join(o, 'spec.yaml')),
    },
    {
      name: 'state set spec with the spec folder symlinked outside',
      args: ['state', 'set', '1.1', 'spec'],
      prepare: linkTo('.codelabgen/lessons/1.1', (o) => path.join(o, 'dir'), true),
    },
    {
      name: 'state fail with config.yaml symlinked outside',
      args: ['state', 'fail', '1.2', '--note', 'x'],
      prepare: linkTo('.codelabgen/config.yaml', (o) => path.join(o, 'secret.txt')),
    },
    {
      name: 'report with report.md symlinked outside',
      args: ['report'],
      prepare: linkTo('.codelabgen/report.md', (o) => path.join(o, 'secret.txt')),
    },
    {
      name: 'report with report.json symlinked outside',
      args: ['report'],
      prepare: linkTo('.codelabgen/report.json', (o) => path.join(o, 'secret.txt')),
    },
    {
      name: 'state log with events.jsonl symlinked outside',
      args: ['state', 'log', 'x'],
      prepare: linkTo('.codelabgen/events.jsonl', (o) => path.join(o, 'secret.txt')),
    },
    {
      name: 'state log with the lock symlinked outside',
      args: ['state', 'log', 'x'],
      prepare: linkTo('.codelabgen/lock', (o) => path.join(o, 'secret.txt')),
    },
    {
      name: 'verify --update-state with the lesson folder symlinked outside',
      args: ['verify', '1.1', '--update-state'],
      prepare: linkTo('1-basics/1.1-intro', (o) => path.join(o, 'dir'), true),
    },
    {
      name: 'task done --result ../outside',
      args: ['state', 'task', 'done', 't1', '--result', '../outside/secret.txt'],
    },
    { name: 'task done --result /etc/passwd', args: ['state', 'task', 'done', 't1', '--result', '/etc/passwd'] },
    { name: 'task done --result a directory', args: ['state', 'task', 'done', 't1', '--result', '.codelabgen'] },
    {
      name: 'status check /dev/zero-like huge file',
      args: ['status', 'check', '../outside/big.txt'],
      prepare: (_root, o) => writeFileSync(path.join(o, 'big.txt'), Buffer.alloc(8 * MB, 0x7b)),
    },
    { name: 'init over an existing course', args: ['init', '.', '--title', 'again'] },
    {
      name: 'init with a 1 MB-ish title',
      args: ['init', 'fresh', '--title', 'x'.repeat(ARG_MAX_VALUE)],
      fromParent: true,
    },
  ];
}

/** Argument templates of every state-changing command; `$` slots take a hostile string. */
const TEMPLATES: ReadonlyArray<readonly string[]> = [
  ['init', 'fresh', '--title', '$', '--topic', '$'],
  ['state', 'log', '$', '--lesson', '$', '--data', '$'],
  ['state', 'log', 'fuzz', '--lesson', '1.1', '--data', 'k=$', '--data', '$=v'],
  ['state', 'phase', '$'],
  ['state', 'phase', 'recon', '--approved'],
  ['state', 'set', '$', '$'],
  ['state', 'set', '1.2', 'pending', '--note', '$'],
  ['state', 'set', '1.1', '$', '--note', '$'],
  ['state', 'fail', '$', '--note', '$'],
  ['state', 'fail', '1.2', '--note', '$'],
  ['state', 'block', '$', '--reason', '$'],
  ['state', 'block', '1.1', '--reason', '$'],
  ['state', 'unblock', '$'],
  ['state', 'stale', '$', '--reason', '$'],
  ['state', 'task', 'start', '$', '--role', '$'],
  ['state', 'task', 'start', '1.1', '--role', '$'],
  ['state', 'task', 'done', '$', '--note', '$'],
  ['state', 'task', 'fail', 't1', '--note', '$'],
  ['state', 'task', 'reset', '$', '--note', '$'],
  ['status', 'check', '$'],
  ['verify', '$', '--update-state'],
  ['report', '--json'],
  ['register', '$'],
];

/** `count` commands with hostile strings in their slots, drawn from `random`. */
export function argvCases(random: () => number, count: number): FuzzCase[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, n) => {
    const template = pick(TEMPLATES);
    const args = template.map((word) =>
      word === '$' ? pick(HOSTILE_STRINGS) : word.replace('$', () => pick(HOSTILE_STRINGS)),
    );
    const shown = args
      .map((arg) => (arg.length > 24 ? `${JSON.stringify(arg.slice(0, 12))}…(${arg.length})` : JSON.stringify(arg)))
      .join(' ');
    return { name: `#${n} ${shown}`, args, fromParent: template[0] === 'init' };
  });
}
