// THE registry of lesson runtimes (node, python, python-uv, custom): the one list that the schema's
// enum, verify (pipeline/verify/runtimes/, one module each), init and the lesson templates, help and
// the docs read (docs/architecture.md, "Registries"). Adding a runtime is an entry here, its module
// in pipeline/verify/runtimes/ and its tests. Zod-free: the CLI's start-up path reads it.
import { listInProse } from './prose-list.ts';

export interface RuntimeEntry {
  /** The name in config.yaml and a lesson spec (`runtime: python`). */
  readonly name: string;
  /** What runs the tests when no test_command is given (null: a test_command is required). */
  readonly testCommand: string | null;
  /** What runs before the tests, when anything does. */
  readonly install: string | null;
  /** The folder of templates/ that `init --example`, `new module` and `new lesson` copy; null: none. */
  readonly template: string | null;
  /** How verify picks the command and its working folder from the lesson folder. */
  readonly detection: string;
  /** Top-level folders of the lesson the run may fill that do not count as written by the tests. */
  readonly unmeasured: readonly string[];
}

/** In the order help and the docs list them; the first is the default. */
export const RUNTIME_REGISTRY = [
  {
    name: 'node',
    testCommand: '`npm test` when package.json has a test script, else `node --test`',
    install: '`npm ci --ignore-scripts` when a lock file exists and node_modules/ does not',
    template: 'node',
    detection: 'package.json with a test script; package-lock.json or npm-shrinkwrap.json for the install',
    unmeasured: [],
  },
  {
    name: 'python',
    testCommand:
      '`python3 -m pytest -p no:cacheprovider` when pytest is importable, else `python3 -m unittest discover`',
    install: null,
    template: 'python',
    detection: 'whether the python3 the tests run imports pytest',
    unmeasured: [],
  },
  {
    name: 'python-uv',
    testCommand: '`uv run pytest -p no:cacheprovider <lesson folder>` in the uv workspace',
    install: '`uv run` fills `.venv/`',
    template: null,
    detection: 'the nearest uv.lock, or pyproject.toml declaring [tool.uv.workspace], from the lesson folder up',
    unmeasured: ['.venv'],
  },
  {
    name: 'custom',
    testCommand: null,
    install: null,
    template: null,
    detection: 'none: the test_command of the spec or config.yaml',
    unmeasured: [],
  },
] as const satisfies readonly RuntimeEntry[];

export type RuntimeName = (typeof RUNTIME_REGISTRY)[number]['name'];

/** The names, for the schema's enum (a non-empty tuple) and checks of an option. */
export const RUNTIMES = RUNTIME_REGISTRY.map((entry) => entry.name) as [RuntimeName, ...RuntimeName[]];

/** The runtime of a course whose config.yaml names none. */
export const DEFAULT_RUNTIME: RuntimeName = RUNTIME_REGISTRY[0].name;

/** The runtimes with a lesson template (templates/<folder>). */
export const TEMPLATE_RUNTIMES: readonly RuntimeName[] = RUNTIME_REGISTRY.filter(
  (entry) => (entry.template as string | null) !== null,
).map((entry) => entry.name);

/** A runtime's entry, or undefined for a name that is none. */
export function runtimeEntry(name: string): RuntimeEntry | undefined {
  return RUNTIME_REGISTRY.find((entry) => entry.name === name);
}

/** The runtimes as prose: "node, python, python-uv or custom". */
export function runtimeList(conjunction: 'or' | 'and' = 'or'): string {
  return listInProse(RUNTIMES, conjunction);
}

/** The runtimes with a template as prose: "node or python". */
export function templateRuntimeList(conjunction: 'or' | 'and' = 'or'): string {
  return listInProse(TEMPLATE_RUNTIMES, conjunction);
}
