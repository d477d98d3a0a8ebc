// CLI manners end to end: group help, "did you mean" for commands and options, --course accepted
// by every command, shell completion generated from the table, FORCE_COLOR/NO_COLOR, and the
// commands the demo advertises at its end.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { nextSteps } from '../scripts/demo-next-steps.ts';
import { COMMANDS } from './commands.ts';
import { completionScript } from './completion.ts';
import { acceptedOptionsOf, groupHelp, groupsOf } from './help.ts';
import { colorEnabled } from './output.ts';
import { cli, scratchCourse, scratchDir, snapshot } from './testing.ts';

function refusal(args: string[]): string {
  const result = cli(args);
  assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `expected one line, got:\n${result.stderr}`);
  return lines[0] ?? '';
}

test('a group answers --help, -h and help <group> with its commands', () => {
  for (const group of groupsOf(COMMANDS)) {
    const words = group.split(' ');
    if (COMMANDS.some((spec) => spec.name === group)) continue; // "verify": its command help, below
    const expected = `${groupHelp(COMMANDS, group)}\n`;
    for (const args of [
      [...words, '--help'],
      [...words, '-h'],
      ['help', ...words],
      ['help', ...words, '--course', 'x'],
    ]) {
      const result = cli(args);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, expected, args.join(' '));
    }
  }
  const state = cli(['state', '--help']).stdout;
  assert.match(state, /^usage: codelabgen state <command> \[options\]\n/);
  assert.match(state, /^ {2}show +summary of the course state/m);
  assert.match(state, /^ {2}task start <lesson> \| --phase P +record that a worker started/m);
  const task = cli(['state', 'task', '--help']).stdout;
  assert.match(task, /^usage: codelabgen state task <command>/);
  assert.doesNotMatch(task, /^ {2}show /m, 'state task --help lists only the task commands');
  assert.match(cli(['help', 'site']).stdout, /^ {2}build +build the course site/m);
  assert.match(
    cli(['help', 'state', 'show']).stdout,
    /^usage: codelabgen state show /,
    'help <command> is the command help',
  );
  const verify = cli(['verify', '--help']).stdout;
  assert.match(verify, /^usage: codelabgen verify \[ID\]/);
  assert.match(verify, /\ncommands under "verify":\n {2}verify merge DIR\.\.\. +summarize run-results/);
  assert.equal(cli(['help', 'verify']).stdout, verify);
});

test('a bare group is refused with its commands', () => {
  assert.equal(
    refusal(['state', 'task']),
    'error: "state task" needs a command: start, heartbeat, done, fail, reset, list (see "codelabgen state task --help")',
  );
});

test('an unknown command or option close to a known one gets "did you mean"', () => {
  assert.equal(refusal(['sitee', 'build']), 'error: unknown command "sitee"; did you mean "site build"?');
  assert.equal(refusal(['stat', 'show']), 'error: unknown command "stat"; did you mean "state show"?');
  assert.equal(refusal(['state', 'shwo']), 'error: unknown command "state shwo"; did you mean "state show"?');
  assert.equal(
    refusal(['state', 'task', 'strat', '1.1']),
    'error: unknown command "state task strat"; did you mean "state task start"?',
  );
  assert.equal(refusal(['help', 'sit']), 'error: unknown command "sit"; did you mean "site"?');
  assert.equal(
    refusal(['site', 'build', '--outt', 'x']),
    'error: site build: unknown option \'--outt\'; did you mean --out? (see "codelabgen site build --help")',
  );
  assert.equal(
    refusal(['verify', '--al']),
    'error: verify: unknown option \'--al\'; did you mean --all? (see "codelabgen verify --help")',
  );
  assert.equal(refusal(['bogus']), 'error: unknown command "bogus"; run "codelabgen --help" for the list');
  assert.equal(
    refusal(['state', 'show', '--bogus']),
    'error: state show: unknown option \'--bogus\' (see "codelabgen state show --help")',
  );
});

test('every command accepts --course, also those that use no course', () => {
  const course = scratchCourse();
  const before = snapshot(course);
  for (const args of [
    ['state', 'stages'],
    ['schema', 'list'],
    ['schema', 'show', 'curriculum'],
    ['completion', 'bash'],
  ]) {
    const result = cli([...args, '--course', course]);
    assert.equal(result.code, 0, `${args.join(' ')} --course: ${result.stderr}`);
  }
  const status = cli(['status', 'check', '-', '--course', course], {
    input: '{"lesson":"1.1","status":"ok","stage":"code"}',
  });
  assert.equal(status.code, 0, status.stderr);
  assert.deepEqual(snapshot(course), before, 'commands that use no course changed it');
  const dir = scratchDir();
  const init = cli(['init', '--course', `${dir}/new`, '--title', 'T']);
  assert.equal(init.code, 0, init.stderr);
  assert.ok(snapshot(`${dir}/new`).has('.codelabgen/state.json'), 'init --course D creates the course in D');
});

test('completion bash offers the commands and options of the table', () => {
  const result = cli(['completion', 'bash']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${completionScript('bash', COMMANDS).trimEnd()}\n`);
  const complete = (...words: string[]) => {
    const script =
      `${result.stdout}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; ` +
      `_codelabgen; echo "\${COMPREPLY[*]}"`;
    const run = spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout.trim();
  };
  assert.equal(complete('codelabgen', 'sta'), 'state status');
  assert.equal(complete('codelabgen', 'site', ''), 'build dev preview');
  assert.equal(complete('codelabgen', '--course', 'd', 'state', 'task', ''), 'start heartbeat done fail reset list');
  assert.equal(complete('codelabgen', 'state', 'set', '1.2', '--n'), '--note');
  assert.equal(complete('codelabgen', 'site', 'build', '--o'), '--out');
  // From a project's own install the CLI runs as `npx codelabgen`: the same completions after it.
  assert.match(result.stdout, /^complete -o default -F _codelabgen codelabgen npx$/m);
  assert.equal(complete('npx', 'code'), 'codelabgen');
  assert.equal(complete('npx', 'codelabgen', 'site', ''), 'build dev preview');
  assert.equal(complete('npx', 'codelabgen', 'site', 'build', '--o'), '--out');
  assert.equal(complete('npx', 'prettier', ''), '');
  assert.equal(
    refusal(['completion', 'tcsh']),
    'error: completion: unknown shell "tcsh"; expected one of bash, zsh, fish',
  );
});

test('completion zsh and fish cover every command and are valid scripts where the shell exists', () => {
  for (const shell of ['zsh', 'fish'] as const) {
    const script = completionScript(shell, COMMANDS);
    for (const spec of COMMANDS)
      assert.ok(script.includes(spec.name.split(' ').at(-1) ?? ''), `${shell}: ${spec.name} missing`);
    const file = path.join(scratchDir(), `codelabgen.${shell}`);
    writeFileSync(file, script);
    const check = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
    if (check.error) continue; // the shell is not installed here
    assert.equal(check.status, 0, `${shell} -n: ${check.stderr}`);
    if (shell === 'zsh') {
      // bashcompinit calls the function in sh emulation; zsh's compgen returns every candidate and
      // zsh itself filters them by the typed prefix.
      const complete = (...words: string[]) =>
        spawnSync(
          'zsh',
          [
            '-f',
            '-c',
            `source ${file}; emulate sh; COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _codelabgen; echo "\${COMPREPLY[*]}"`,
          ],
          { encoding: 'utf8' },
        ).stdout.trim();
      assert.equal(
        complete('codelabgen', '--course', 'd', 'state', 'task', 'x'),
        'start heartbeat done fail reset list',
      );
      assert.match(complete('codelabgen', 'site', 'build', '--o'), /--out .*--strict-diagrams/);
    }
    if (shell === 'fish') {
      const complete = (line: string) =>
        spawnSync('fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`], { encoding: 'utf8' })
          .stdout.split('\n')
          .map((row) => row.split('\t')[0])
          .filter(Boolean);
      assert.deepEqual(complete('codelabgen site '), ['build', 'dev', 'preview']);
      assert.deepEqual(complete('codelabgen --course d state task st'), ['start']);
      assert.deepEqual(complete('codelabgen state set 1.2 --no'), ['--note']);
    }
  }
  assert.match(completionScript('fish', COMMANDS), /-n '__codelabgen_under "site build"' -l out -r -F/);
});

test('colour: NO_COLOR off, else FORCE_COLOR decides, else only on a TTY', () => {
  const cases: Array<[boolean, NodeJS.ProcessEnv, boolean]> = [
    [true, {}, true],
    [false, {}, false],
    [true, { TERM: 'dumb' }, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { FORCE_COLOR: '0' }, false],
    [true, { FORCE_COLOR: 'false' }, false],
    [false, { FORCE_COLOR: '1' }, true],
    [false, { FORCE_COLOR: '' }, true],
    [false, { FORCE_COLOR: '1', NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
  ];
  for (const [isTTY, env, expected] of cases)
    assert.equal(colorEnabled({ isTTY }, env), expected, `${isTTY ? 'TTY' : 'pipe'} ${JSON.stringify(env)}`);
  const course = scratchCourse();
  const painted = cli(['state', 'show', '--course', course], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
  assert.match(painted.stdout, /\x1b\[1m/, 'FORCE_COLOR=1 paints on a pipe');
  const plain = cli(['state', 'show', '--course', course], { env: { NO_COLOR: undefined, FORCE_COLOR: '0' } });
  assert.doesNotMatch(plain.stdout, /\x1b\[/);
});

test('the demo ends with commands the CLI accepts, site dev among them', () => {
  const lines = nextSteps('/tmp/x/demo-course', '/tmp/x/demo-site', 12.3, '/tmp/x');
  assert.match(lines.join('\n'), /npx codelabgen site dev --course demo-course\b/);
  for (const line of lines) {
    const command = /npx codelabgen (.*?)(?: \(|$)/.exec(line)?.[1];
    if (command === undefined) continue;
    const words = command.split(' ');
    const spec = COMMANDS.filter((candidate) => candidate.name.split(' ').every((word, i) => words[i] === word)).at(-1);
    assert.ok(spec, `the demo advertises an unknown command: ${command}`);
    for (const option of words.filter((word) => word.startsWith('--')))
      assert.ok(option.slice(2) in acceptedOptionsOf(spec), `${spec.name} has no ${option}`);
  }
});
