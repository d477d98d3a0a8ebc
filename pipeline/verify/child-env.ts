// The clean environment a lesson's tests run in: a documented allowlist of the parent's variables,
// a few fixed ones for plain, parseable output, and the running node's folder first on PATH.
import path from 'node:path';
import { isInside } from '../course/inside.ts';

/** Passed through from codelabgen's own environment when set (docs/verify.md lists them). */
export const PASSED_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
  'NODE_EXTRA_CA_CERTS',
  'npm_config_registry',
  'npm_config_cache',
  'PIP_INDEX_URL',
  'UV_CACHE_DIR',
  'UV_INDEX_URL',
  'UV_PYTHON',
  'XDG_CACHE_HOME',
] as const;

/** Always set in the child: no colour codes in the output, CI behaviour, no bytecode files. */
export const FIXED_VARIABLES: Readonly<Record<string, string>> = {
  CI: '1',
  NO_COLOR: '1',
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONUNBUFFERED: '1',
};

/** Names listed here (comma-separated) are passed through as well. */
export const EXTRA_VARIABLES = 'CODELABGEN_VERIFY_ENV';

export type ChildEnv = Record<string, string>;

/**
 * The child's environment from `parent`: the allowlist, CODELABGEN_VERIFY_ENV's names, the fixed
 * variables, and `nodeDir` (the folder of the node running codelabgen) first on PATH so that
 * `node` and npm scripts use the same node.
 */
export function childEnv(parent: NodeJS.ProcessEnv, nodeDir = path.dirname(process.execPath)): ChildEnv {
  const env: ChildEnv = {};
  const extra = (parent[EXTRA_VARIABLES] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  for (const name of [...PASSED_VARIABLES, ...extra]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, FIXED_VARIABLES);
  const rest = (env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '' && dir !== nodeDir);
  env.PATH = [nodeDir, ...rest].join(path.delimiter);
  return env;
}

/**
 * The absolute path of `program` in PATH, skipping relative folders (`.`, which would be the
 * lesson folder) and folders inside `untrusted` (the lesson folder: a test writes there), or null
 * when none has it. A program given with a slash (`./run.sh`, `/usr/bin/make`) is returned as is.
 */
export function resolveProgram(
  program: string,
  env: ChildEnv,
  isExecutable: (file: string) => boolean,
  untrusted: readonly string[],
): string | null {
  if (program.includes('/')) return program;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir) || untrusted.some((folder) => isInside(dir, folder))) continue;
    if (isExecutable(path.join(dir, program))) return path.join(dir, program);
  }
  return null;
}
