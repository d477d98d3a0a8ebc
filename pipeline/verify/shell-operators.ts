// Test commands are argv lists run without a shell: an element that contains a shell operator was
// written for a shell and would not do what it says, so it is refused naming the field.
import { printable } from '../course/course.ts';
import { refuse } from '../course/errors.ts';

/** Longest first, so `&&` is named rather than `&`-less `|`. */
export const SHELL_OPERATORS = ['&&', '||', '$(', '|', ';', '>', '<', '`'] as const;

/** The first shell operator in `value`, or null. */
export function findShellOperator(value: string): string | null {
  for (const operator of SHELL_OPERATORS) if (value.includes(operator)) return operator;
  return null;
}

/** Refuses an argv whose element contains a shell operator; `field` is e.g. `spec.yaml: test_command`. */
export function refuseShellOperators(argv: readonly string[], field: string): void {
  argv.forEach((element, index) => {
    const operator = findShellOperator(element);
    if (operator !== null) {
      refuse(
        `${field}[${index}]: "${printable(element)}" contains the shell operator "${operator}"; test commands ` +
          'run without a shell, so give one program and its arguments as a list',
        'to run several steps, put them in a script in the lesson folder and make test_command run it',
      );
    }
  });
}
