// The node runtime: `npm test` when package.json has a test script (after `npm ci` when locked and
// not installed), else `node --test` with the node that runs codelabgen.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readTextFile } from '../../../content-schemas/fast.ts';
import { plainCommand, type ResolveCommand } from '../test-command.ts';

/** npm ci runs no install scripts (the lesson's own or its dependencies') unless the spec says `install_scripts: true`. */
export const nodeCommand: ResolveCommand = ({ given, lessonDir, env, installScripts }) => {
  if (given) return plainCommand('node', given, lessonDir, env);
  const manifest = path.join(lessonDir, 'package.json');
  if (existsSync(manifest) && hasTestScript(manifest)) {
    const locked =
      existsSync(path.join(lessonDir, 'package-lock.json')) || existsSync(path.join(lessonDir, 'npm-shrinkwrap.json'));
    const prepare =
      locked && !existsSync(path.join(lessonDir, 'node_modules'))
        ? ['npm', 'ci', '--no-audit', '--no-fund', ...(installScripts ? [] : ['--ignore-scripts'])]
        : null;
    return { runtime: 'node', argv: ['npm', 'test'], cwd: lessonDir, env, prepare };
  }
  return plainCommand('node', [process.execPath, '--test'], lessonDir, env);
};

function hasTestScript(manifest: string): boolean {
  try {
    const scripts = (JSON.parse(readTextFile(manifest, 'package.json')) as { scripts?: Record<string, unknown> })
      .scripts;
    return typeof scripts?.test === 'string' && scripts.test.trim() !== '';
  } catch {
    return false; // an unreadable package.json has no usable test script; node --test still runs
  }
}
