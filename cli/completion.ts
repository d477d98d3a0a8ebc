// Shell completion scripts (bash, zsh, fish) generated from the command table, so they offer
// exactly the commands and options the CLI accepts. Pure: `codelabgen completion` prints them.
import { acceptedOptionsOf, groupsOf, nextWords } from './help.ts';
import type { CommandSpec } from './spec.ts';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What follows each typed prefix: the next command words after a group, the options after a command. */
function completionTable(commands: readonly CommandSpec[]): Array<[string, string[]]> {
  const rows: Array<[string, string[]]> = [['', [...nextWords(commands, ''), 'help']]];
  for (const group of groupsOf(commands)) rows.push([group, nextWords(commands, group)]);
  for (const spec of commands) {
    const options = Object.keys(acceptedOptionsOf(spec)).map((name) => `--${name}`);
    const existing = rows.find(([prefix]) => prefix === spec.name);
    if (existing)
      existing[1].push(...options); // "verify" is a command and the group of "verify merge"
    else rows.push([spec.name, options]);
  }
  return rows;
}

/** Options that take a value: the word after them is a value (completed as a file), not a command word. */
function valueOptions(commands: readonly CommandSpec[]): string[] {
  const names = new Set<string>();
  for (const spec of commands)
    for (const [name, option] of Object.entries(acceptedOptionsOf(spec)))
      if (option.type === 'string') names.add(`--${name}`);
  return [...names].sort();
}

function bash(commands: readonly CommandSpec[]): string {
  const cases = completionTable(commands).map(
    ([prefix, words]) => `    "${prefix}") candidates="${words.join(' ')}" ;;`,
  );
  return `# codelabgen completion for bash: eval "$(codelabgen completion bash)" (e.g. in ~/.bashrc)
_codelabgen() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" key="" word candidates="" i first=1
  # \`npx codelabgen ...\` (a project's own install): the command words start after "codelabgen".
  if [ "\${COMP_WORDS[0]##*/}" = npx ]; then
    if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W codelabgen -- "$cur")); return; fi
    [ "\${COMP_WORDS[1]}" = codelabgen ] || { COMPREPLY=(); return; }
    first=2
  fi
  case " ${valueOptions(commands).join(' ')} " in
    *" $prev "*) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  for ((i = first; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in -*) continue ;; esac
    case " ${valueOptions(commands).join(' ')} " in *" \${COMP_WORDS[i-1]} "*) continue ;; esac
    if _codelabgen_known "\${key:+$key }$word"; then key="\${key:+$key }$word"; else break; fi
  done
  _codelabgen_candidates "$key"
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
_codelabgen_known() {
  local candidates=""
  _codelabgen_candidates "$1"
  [ -n "$candidates" ]
}
_codelabgen_candidates() {
  case "$1" in
${cases.join('\n')}
    *) candidates="" ;;
  esac
}
complete -o default -F _codelabgen codelabgen npx
`;
}

function zsh(commands: readonly CommandSpec[]): string {
  return `# codelabgen completion for zsh: eval "$(codelabgen completion zsh)" (e.g. in ~/.zshrc)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bash(commands).split('\n').slice(1).join('\n')}`;
}

function fish(commands: readonly CommandSpec[]): string {
  const lines = [
    '# codelabgen completion for fish: codelabgen completion fish > ~/.config/fish/completions/codelabgen.fish',
    'function __codelabgen_words',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l out',
    '    set -l skip 0',
    '    for word in $words',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        if string match -q -- "-*" $word',
    `            contains -- $word ${valueOptions(commands).join(' ')}; and set skip 1`,
    '            continue',
    '        end',
    '        set out $out $word',
    '    end',
    '    string join " " -- $out',
    'end',
    'function __codelabgen_is',
    '    set -l words (__codelabgen_words)',
    '    test "$words" = "$argv[1]"',
    'end',
    'function __codelabgen_under',
    '    set -l words (__codelabgen_words)',
    '    string match -q -- "$argv[1]" "$words"; or string match -q -- "$argv[1] *" "$words"',
    'end',
    'complete -c codelabgen -f',
  ];
  const summaryOf = (name: string) => commands.find((spec) => spec.name === name)?.summary ?? `${name} commands`;
  for (const [prefix, words] of completionTable(commands)) {
    const condition = `__codelabgen_is "${prefix}"`;
    const optionCondition = `__codelabgen_under "${prefix}"`; // also after the positionals: "state set 1.2 --n"
    for (const word of words) {
      if (word.startsWith('--')) {
        const option = acceptedOptionsOf(commands.find((spec) => spec.name === prefix)!)[word.slice(2)]!;
        lines.push(
          `complete -c codelabgen -n '${optionCondition}' -l ${word.slice(2)}${option.type === 'string' ? ' -r -F' : ''} -d ${quote(option.help)}`,
        );
      } else
        lines.push(
          `complete -c codelabgen -n '${condition}' -a ${word} -d ` +
            `${quote(word === 'help' && prefix === '' ? 'help on a command or group' : summaryOf(`${prefix ? `${prefix} ` : ''}${word}`))}`,
        );
    }
  }
  return `${lines.join('\n')}\n`;
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function completionScript(shell: Shell, commands: readonly CommandSpec[]): string {
  return shell === 'bash' ? bash(commands) : shell === 'zsh' ? zsh(commands) : fish(commands);
}
