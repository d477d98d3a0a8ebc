// Text in tool terms (cli/mcp/tool-terms.ts): the one translation of CLI words for MCP clients, and
// state next's next_command as a tool call (issue 35.3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { printable } from '../pipeline/state-commands.ts';
import { prng } from './fuzz-cases.ts';
import { inToolTerms, plannedCall } from './mcp/tool-terms.ts';

const CASES: Array<[string, string]> = [
  ['lesson 1.1: not registered (run: codelabgen register)', 'lesson 1.1: not registered (run: register {})'],
  ['a successful site build recorded (codelabgen site build)', 'a successful site build recorded (site_build {})'],
  ['see: codelabgen state next', 'see: state_next {}'],
  ['run codelabgen state phase topics --approved, then', 'run state_phase {"next":"topics","approved":true}, then'],
  ['codelabgen state set 1.2 <stage> --note "why"', 'state_set {"id":"1.2","stage":"<stage>","note":"why"}'],
  ['codelabgen init DIR --title "Course title"', 'init {"course":"DIR","title":"Course title"}'],
  ['give --role R if a worker runs anyway', 'give `role` if a worker runs anyway'],
  ['(e.g. --role researcher)', '(e.g. `role: "researcher"`)'],
  ['state task start --phase recon: the course is at init', 'state task start `phase: "recon"`: the course is at init'],
  ['init: --title is 201 characters', 'init: `title` is 201 characters'],
  ['pass --course DIR, set CODELABGEN_COURSE', 'pass `course`, set CODELABGEN_COURSE'],
  ['verify: give one lesson id or --all', 'verify: give one lesson id or `all: true`'],
  ['--out /tmp/site is inside the course', '`out: "/tmp/site"` is inside the course'],
  ['granted (`state unblock --review-round`)', 'granted (`state_unblock {"review_round":true}`)'],
  ['tasks (`state task start --phase`)', 'tasks (`state_task_start {"phase":"<phase>"}`)'],
  ['needs `--approved`', 'needs `approved: true`'],
  // Not codelabgen's: left as written.
  ['argv: node --test; front matter ---', 'argv: node --test; front matter ---'],
  ['codelabgen keeps the state', 'codelabgen keeps the state'],
];

test('command lines and options in prose become tool calls and arguments; other text stays', () => {
  for (const [cli, mcp] of CASES) assert.equal(inToolTerms(cli), mcp, cli);
});

const ODD_SEED = Number(process.env.MCP_TERMS_SEED ?? 1);
const ODD_CASES = Number(process.env.MCP_TERMS_CASES ?? 300);
/** What makes a quoted value hard to find the end of: quotes, backslashes, parentheses, backticks, spaces. */
const ODD = [
  '"',
  '\\',
  '(',
  ')',
  '`',
  ' ',
  '  ',
  ':',
  ',',
  '.',
  '-',
  '--x',
  "'",
  '{',
  '}',
  'a',
  '1',
  '\n',
  '\u202e',
  'é',
];

test('a quoted value the CLI wrote (quotes, backslashes, parentheses, backticks) comes out of the translation whole (seeded)', () => {
  // Before: `site_build {"site":"a\"b) c"}` was refused as `site: "a\"`b) c"`: the value ended at its escaped quote.
  const random = prng(ODD_SEED);
  const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;
  for (let at = 0; at < ODD_CASES; at += 1) {
    let value = '';
    for (let length = 1 + Math.floor(random() * 8); length > 0; length -= 1)
      value += ODD[Math.floor(random() * ODD.length)];
    const quoted = `"${printable(value, 1000)}"`;
    const what = `${JSON.stringify(value)} (MCP_TERMS_SEED=${ODD_SEED}, case ${at})`;
    // An option in a refusal's prose: its value, then the rest of the line.
    const prose = inToolTerms(`error: --site ${quoted}: use the site's public http(s) URL`);
    const option = new RegExp(String.raw`^error: \`site: (${QUOTED})\`: use the site's public http\(s\) URL$`).exec(
      prose,
    );
    assert.ok(option, `${what}: ${prose}`);
    assert.equal(JSON.parse(option[1]!), value, `${what}: ${prose}`);
    // A command line in a hint: the call's arguments, then the sentence going on.
    const hint = inToolTerms(`hint: run codelabgen state set 1.2 spec --note ${quoted}, then go on`);
    const call = /^hint: run state_set (\{.*\}), then go on$/.exec(hint);
    assert.ok(call, `${what}: ${hint}`);
    assert.deepEqual(JSON.parse(call[1]!), { id: '1.2', stage: 'spec', note: value }, `${what}: ${hint}`);
  }
});

test("state next's next_command as a tool call: positionals by name, options as arguments", () => {
  assert.deepEqual(plannedCall({ command: 'verify', positionals: ['1.2'], options: { 'update-state': true } }), {
    tool: 'verify',
    arguments: { id: '1.2', update_state: true },
  });
  assert.deepEqual(
    plannedCall({ command: 'state task start', positionals: [], options: { phase: 'recon', role: 'researcher' } }),
    { tool: 'state_task_start', arguments: { phase: 'recon', role: 'researcher' } },
  );
  assert.deepEqual(plannedCall({ command: 'register', positionals: [], options: {} }), {
    tool: 'register',
    arguments: {},
  });
  assert.throws(() => plannedCall({ command: 'site dev', positionals: [], options: {} }), /no tool/);
});
