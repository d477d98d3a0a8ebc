// THE registry of lesson runtimes (node, python, python-uv, custom): the one list that the schema's
// enum, verify (pipeline/verify/runtimes/, one module each), init and the lesson templates, help and
// the docs read (docs/architecture.md, "Registries"). Adding a runtime is an entry here, its module
// in pipeline/verify/runtimes/ and its tests. Zod-free: the CLI's start-up path reads it.
import { listInProse } from './prose-list.ts';

export interface RuntimeEntry {
  /** The name in config.yaml and a lesson spec (`runtime: python`). */
  readonly name: string;
  /** What runs the tests without a test_command, and how verify chooses it (markdown; null: a test_command is required). */
  readonly testCommand: string | null;
  /** What runs before the tests, when anything does (markdown). */
  readonly install: string | null;
  /** The working folder of the tests, and how verify finds it (markdown). */
  readonly workingFolder: string;
  /** The folder of templates/ that `init --example`, `new module` and `new lesson` copy; null: none. */
  readonly template: string | null;
  /** Top-level folders of the lesson the run may fill that do not count as written by the tests. */
  readonly unmeasured: readonly string[];
}

/** In the order help and the docs list them; the first is the default. */
export const RUNTIME_REGISTRY = [
  {
    name: 'node',
    testCommand:
      '`node --test` with the node that runs codelabgen; `npm test` when the lesson has a `package.json` with a ' +
      '`test` script',
    install:
      '`npm ci --ignore-scripts` before `npm test` when a `package-lock.json` (or `npm-shrinkwrap.json`) exists and ' +
      '`node_modules/` does not (`npm ci` with install scripts when the spec says `install_scripts: true`; see ' +
      '[Every lesson step in one sandbox](#every-lesson-step-in-one-sandbox))',
    workingFolder: 'the lesson folder',
    template: 'node',
    unmeasured: [],
  },
  {
    name: 'python',
    testCommand:
      '`python3 -m pytest -p no:cacheprovider` when pytest is importable, else `python3 -m unittest discover`. The ' +
      'check runs the same `python3` as the tests, in the sandbox like them, without the lesson folder on ' +
      "`sys.path` (a lesson's own `pytest.py` does not answer for pytest)",
    install: null,
    workingFolder: 'the lesson folder',
    template: 'python',
    unmeasured: [],
  },
  {
    name: 'python-uv',
    testCommand:
      '`uv run --no-build pytest -p no:cacheprovider <lesson folder>` (`uv run pytest ...` with ' +
      '`install_scripts: true`); refused when `uv` is not on PATH. In the sandbox, a ' +
      "workspace above the lesson folder is read-only: uv's environment goes to `<lesson>/.venv` " +
      '(`UV_PROJECT_ENVIRONMENT`), and a workspace with a `pyproject.toml` but no `uv.lock` is refused (uv could ' +
      'not write it)',
    install:
      "`uv run` syncs the workspace's dependencies into its environment (`.venv/`; in the sandbox the lesson's), " +
      'not counted as written by the tests',
    workingFolder:
      "the module's uv workspace: the nearest folder from the lesson up to the course root with a `uv.lock` or a " +
      '`pyproject.toml` declaring `[tool.uv.workspace]`, else the nearest with a `pyproject.toml`, else the ' +
      'module folder',
    template: null,
    unmeasured: ['.venv'],
  },
  {
    name: 'custom',
    testCommand: null,
    install: null,
    workingFolder: 'the lesson folder',
    template: null,
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
