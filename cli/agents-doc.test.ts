// docs/agents.md is read whole by orchestrator agents: it stays under 150 lines, and every command
// and option it names exists in the command table (so it cannot teach a command the CLI refuses).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { COMMANDS } from './commands.ts';
import { COMMON_OPTIONS } from './spec.ts';
import { REPO_ROOT } from './testing.ts';

const AGENTS_DOC = path.join(REPO_ROOT, 'docs', 'agents.md');

/** `codelabgen <command> ... --option` uses in `text` whose command or option the table lacks. */
export function unknownUses(text: string): string[] {
  const names = COMMANDS.map((spec) => spec.name).sort((a, b) => b.length - a.length);
  const problems: string[] = [];
  for (const match of text.matchAll(
    /(?:codelabgen |`)((?:state|status|schema|verify|site|check|report|register|init|conventions)\b[^`|;#\n]*)/g,
  )) {
    const use = (match[1] as string).trim();
    const name = names.find((candidate) => use === candidate || use.startsWith(`${candidate} `));
    if (name === undefined) {
      problems.push(`no command for "${use}"`);
      continue;
    }
    const spec = COMMANDS.find((item) => item.name === name);
    const options = { ...COMMON_OPTIONS, ...spec?.options };
    for (const flag of use.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g))
      if (!Object.hasOwn(options, flag[1] as string))
        problems.push(`"${name}" has no option --${flag[1]} (in "${use}")`);
  }
  return problems;
}

test('unknownUses finds commands and options the CLI does not have', () => {
  assert.deepEqual(
    unknownUses(
      'run `codelabgen state task start 1.2 --role x --course C` then `state frobnicate 1`; codelabgen state fail 1.2 --force',
    ),
    ['no command for "state frobnicate 1"', '"state fail" has no option --force (in "state fail 1.2 --force")'],
  );
});

test('docs/agents.md is under 150 lines and names only commands and options the CLI has', () => {
  const text = readFileSync(AGENTS_DOC, 'utf8');
  assert.ok(text.split('\n').length < 150, `docs/agents.md has ${text.split('\n').length} lines; keep it under 150`);
  assert.deepEqual(unknownUses(text), []);
});
