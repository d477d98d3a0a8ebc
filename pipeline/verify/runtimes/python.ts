// The python runtime: pytest when the python3 the tests will run imports it, else unittest discover.
import { resolveProgram } from '../child-env.ts';
import { plainCommand, PYTEST_NO_CACHE, type ResolveCommand } from '../test-command.ts';

/** python3 is resolved outside the lesson folder, as the tests' will be. */
export const pythonCommand: ResolveCommand = async ({ given, lessonDir, env, probes }) => {
  if (given) return plainCommand('python', given, lessonDir, env);
  const python = resolveProgram('python3', env, probes.isExecutable, [lessonDir]);
  const argv =
    python !== null && (await probes.hasPytest(python, lessonDir, env))
      ? ['python3', '-m', 'pytest', ...PYTEST_NO_CACHE]
      : ['python3', '-m', 'unittest', 'discover'];
  return plainCommand('python', argv, lessonDir, env);
};
