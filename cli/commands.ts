// The command table: every command, its options and help, as data. Help text, completion, the MCP
// tools and docs/cli.md are generated from it, so they cannot drift from what the CLI accepts; the
// code that runs each command is loaded through cli/loaders.ts, which this table never imports (the
// state commands' registry, cli/commands-state.ts, holds the loaders of those dist/state.cjs runs).
import { DEFAULT_RUNTIME, listInProse, RUNTIMES, templateRuntimeList } from '../content-schemas/registries.ts';
import { STATE_COMMANDS } from './commands-state.ts';
import { BRIEFED_PHASES, WORKER_ROLES } from '../content-schemas/names.ts';
import { JSON_OPTION, listed, type CommandSpec } from './spec.ts';

const LESSON_ROLES = WORKER_ROLES.flatMap((entry) => ('stage' in entry ? [entry.role] : [])).join(', ');
const PHASE_ROLES = WORKER_ROLES.flatMap((entry) => ('phase' in entry ? [entry.role] : [])).join(', ');

export const COMMANDS: CommandSpec[] = [
  {
    name: 'init',
    additive: true,
    args: '[DIR]',
    positionals: { min: 0, max: 1 },
    summary: 'create a course directory (refuses an existing state)',
    description:
      'Creates DIR/.codelabgen/ (DIR defaults to the working directory) with a default config.yaml, ' +
      'state.json and the first event, and a .gitignore (when there is none) that keeps the machine-local ' +
      'files of .codelabgen/ out of git. A course is never re-initialized: an existing state is refused. ' +
      "--example also adds a sample module and lesson from the runtime's template, registered as `new module` " +
      'does: a passing lesson to preview with `site dev` and edit.',
    needsCourse: false,
    changesState: true,
    options: {
      title: { type: 'string', value: 'T', help: 'course title (required)', required: true },
      topic: { type: 'string', value: 'X', help: 'what the course is about' },
      runtime: {
        type: 'string',
        value: 'R',
        help: `how lesson tests run: ${listInProse(
          RUNTIMES.map((name) => (name === DEFAULT_RUNTIME ? `${name} (default)` : name)),
          'or',
        )}`,
      },
      example: {
        type: 'boolean',
        help:
          "also add a sample module and lesson (code, test, readalong, notes, spec) from the runtime's template " +
          `(${templateRuntimeList()}); sets site.publish: verified`,
      },
      ci: {
        type: 'string',
        value: 'github',
        help:
          'also write .github/workflows/course-site.yml: verify and deploy to GitHub Pages (refused while ' +
          'package.json has a file: dependency outside the repository)',
      },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen init streams-course --title "Node.js streams" --topic "streams in depth"',
      'codelabgen init my-course --title "My course" --example --ci github',
    ],
  },
  ...STATE_COMMANDS,
  {
    name: 'status check',
    args: 'FILE|-',
    positionals: { min: 1, max: 1 },
    summary: "validate a worker's status JSON (the last JSON block of a longer text)",
    needsCourse: false,
    options: { ...JSON_OPTION },
    examples: [
      'codelabgen status check answer.txt',
      'echo \'{"lesson":"1.2","status":"ok","stage":"code"}\' | codelabgen status check -',
    ],
  },
  {
    name: 'register',
    additive: true,
    idempotent: true,
    summary: "add the curriculum's lessons to state as pending and create their folders",
    description:
      'Reads .codelabgen/curriculum.yaml, adds new lessons as pending in curriculum order, updates titles, ' +
      'and creates each <module-id>-<module-slug>/<lesson-id>-<lesson-slug>/docs/ folder. Idempotent. A lesson ' +
      'that has progressed past pending is never dropped or moved to another folder unless --allow-drop is ' +
      'given.',
    changesState: true,
    options: {
      'allow-drop': { type: 'boolean', help: 'allow dropping or renumbering lessons that have progressed' },
      ...JSON_OPTION,
    },
    examples: ['codelabgen register'],
  },
  {
    name: 'new module',
    additive: true,
    args: '"<title>"',
    positionals: { min: 1, max: 1 },
    summary: 'add a module with a first lesson to curriculum.yaml, register it and create the lesson from a template',
    description:
      'The module gets the next number as id and a slug made from the title; its first lesson (--lesson) is ' +
      'lesson 1 of it (2.1 in module 2). Refused when another module has the slug. Registered as `register` does (the lesson is ' +
      'pending); the lesson folder and .codelabgen/lessons/<id>/spec.yaml come from the template of the course ' +
      `runtime (${templateRuntimeList()}), a passing lesson to edit. The entry is added to curriculum.yaml in place: its ` +
      'comments, key order and quoting are kept.',
    changesState: true,
    options: {
      slug: { type: 'string', value: 'SLUG', help: 'module slug (default: made from the title)' },
      lesson: { type: 'string', value: 'T', help: 'title of the first lesson (default: Introduction)' },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen new module "Composing streams"',
      'codelabgen new module "Composing streams" --lesson "pipeline() and errors"',
    ],
  },
  {
    name: 'new lesson',
    additive: true,
    args: '<module-id> "<title>"',
    positionals: { min: 2, max: 2 },
    summary: 'add a lesson to a module in curriculum.yaml, register it and create its folder from a template',
    description:
      "The lesson gets the module's next id (<module-id>.<n>) and a slug made from the title; refused when " +
      'the module is unknown or already has a lesson with that slug. Registered as `register` does (the lesson ' +
      'is pending); the lesson folder and .codelabgen/lessons/<id>/spec.yaml come from the template of the ' +
      `course runtime (${templateRuntimeList()}). The entry is added to curriculum.yaml in place: its comments, key ` +
      'order and quoting are kept.',
    changesState: true,
    options: {
      slug: { type: 'string', value: 'SLUG', help: 'lesson slug (default: made from the title)' },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen new lesson 1 "Writable streams"',
      'codelabgen new lesson 2 "Async iteration" --slug async-iteration --json',
    ],
  },
  {
    name: 'report',
    writes: true,
    additive: true,
    idempotent: true,
    summary: 'write .codelabgen/report.md and report.json from the event log',
    options: { ...JSON_OPTION },
    examples: ['codelabgen report', 'codelabgen report --json'],
  },
  {
    name: 'verify',
    writes: true,
    additive: true,
    args: '[ID]',
    positionals: { min: 0, max: 1 },
    summary: "run a lesson's tests (or --all), record a run-result; --update-state records the verdict",
    description:
      `Runs the lesson's tests by its runtime (${RUNTIMES.join(', ')}), without a shell, in a clean ` +
      'environment and its own process group (inside the bubblewrap sandbox when available, see ' +
      'verify.sandbox), killed as a group on timeout or when verify is stopped, and writes ' +
      '.codelabgen/runs/<id>/<n>.json. Read-only unless --update-state: then the lesson must be at code; a ' +
      'pass moves it to verified with its code hash, a failure uses a fix attempt (blocking it when the budget ' +
      'is used). Exit 0 passed, 1 failed, 2 refused. The runtimes, timeouts and the sandbox are set in ' +
      '.codelabgen/config.yaml (codelabgen schema show config); a course cannot turn the sandbox off, only ' +
      'CODELABGEN_SANDBOX=off in the environment can.',
    options: {
      all: {
        type: 'boolean',
        help:
          'verify many lessons (default: every lesson at verified or later, every lesson when site.publish is ' +
          'verified or all; with --update-state: at code)',
      },
      'update-state': { type: 'boolean', help: 'record the verdict: verified on pass, a fix attempt on failure' },
      timeout: {
        type: 'string',
        value: 'S',
        help:
          "seconds for all of a lesson's steps together (npm ci, the tests) before the running one is killed " +
          '(default: verify_timeout_seconds of config.yaml)',
      },
      jobs: { type: 'string', value: 'N', help: 'with --all: lessons verified at once (default: min(4, cores))' },
      'stage-at-least': { type: 'string', value: 'S', help: 'with --all: only lessons at stage S or later' },
      shard: {
        type: 'string',
        value: 'K/N',
        help: 'with --all: only shard K of N (every Nth lesson in curriculum order), for CI matrices',
      },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen verify 1.2',
      'codelabgen verify 1.2 --update-state --json',
      'codelabgen verify --all --jobs 4',
      'codelabgen verify --all --shard 2/3',
    ],
  },
  {
    name: 'verify merge',
    notATool: 'summarizes CI shards on a CI machine',
    args: 'DIR...',
    positionals: { min: 1, max: 1000 },
    summary: 'summarize run-results from CI shards (each DIR a copy of .codelabgen/runs/); exit 1 when any failed',
    needsCourse: false,
    options: { ...JSON_OPTION },
    examples: ['codelabgen verify merge shard-runs/runs-*'],
  },
  {
    name: 'schema list',
    summary: 'list the data-file schemas',
    needsCourse: false,
    options: { ...JSON_OPTION },
  },
  {
    name: 'schema show',
    args: '<name>',
    positionals: { min: 1, max: 1 },
    summary: 'print the JSON Schema (draft 2020-12) of a data file',
    needsCourse: false,
    examples: ['codelabgen schema show curriculum'],
  },
  {
    name: 'conventions',
    args: '[readalong|diagrams|review|notes]',
    positionals: { min: 0, max: 1 },
    summary: 'print the doc conventions (code references, diagrams, review files, notes) with examples',
    description:
      'The conventions for lesson docs and review files, with examples. A readalong shows code with an empty ' +
      'fence like ```ts file=src/x.ts lines=10-24; `check` warns about fences that look like a failed ' +
      'reference.',
    needsCourse: false,
    examples: ['codelabgen conventions readalong', 'codelabgen conventions'],
  },
  {
    name: 'brief',
    notATool: 'served as the prompts of the worker roles (the same text, in tool terms)',
    args: '<role> [LESSON]',
    positionals: { min: 1, max: 2 },
    summary:
      "print a worker's brief: the lesson's (or phase's) whole context, the files to write and the status to end with",
    description:
      `The text to start a worker with, assembled from the course. A lesson role (${LESSON_ROLES}) ` +
      "takes a lesson id: the lesson's title, module, " +
      "summary, objectives and goal from its spec (or the spec's schema and path), its folder and the files to write, " +
      'the runtime and the exact test command, the conventions the role follows with a code reference valid in this ' +
      "lesson, the prerequisites' titles and summaries, the digests of its topics' sources, and the status JSON to " +
      'end with (its stage). The code-fixer also gets the last failing run (the failing test, expected and actual, ' +
      "the cause) and the fix budget left; a reworking worker the rework note and the reviewer's findings; the " +
      'lesson-reviewer the checklist `check` applies and what changed since the last review. A phase role ' +
      `(${PHASE_ROLES}) takes --phase (default: its own): the ` +
      "phase's artifacts with their paths and schemas, what to read first and what the phase still needs. No code of " +
      'the lesson or of another lesson is quoted: the worker reads the files. The MCP prompt of the same role serves ' +
      'the same text with tool calls for commands. Read-only.',
    options: {
      phase: {
        type: 'string',
        value: 'P',
        help: `a phase role's phase: ${listed(BRIEFED_PHASES, 'or')} (default: the role's own)`,
      },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen brief code-author 1.2',
      'codelabgen brief code-fixer 1.2 --json',
      'codelabgen brief researcher --phase recon',
    ],
  },
  {
    name: 'notify allow',
    notATool: "a person's consent to run a command with their rights: not a client's to give",
    summary: "allow the course's notify.command and notify.url on this machine (a command runs with your rights)",
    description:
      'config.yaml is course content: a notify.command from it would run with your rights, outside the lesson sandbox, ' +
      'on any command that finds something to notify (after a clone, in CI), and a notify.url would have codelabgen ' +
      'post from this machine to wherever the course says. Each is used only once you allowed that exact command or ' +
      'URL for this course folder on this machine; the consent is kept in ~/.config/codelabgen/notify-allowed.json ' +
      '($XDG_CONFIG_HOME), never in the course, and a changed command or URL needs allowing again. Not an MCP tool.',
    options: { ...JSON_OPTION },
    examples: ['codelabgen notify allow'],
  },
  {
    name: 'check',
    summary: 'check the course: log replay, artifacts, drift (exit 1 when problems are found)',
    options: { ...JSON_OPTION },
  },
  {
    name: 'site build',
    writes: true,
    additive: true,
    summary: 'build the course site (publish: only done lessons; --drafts: every lesson)',
    description:
      'Builds a static site with Astro from the course directory into --out (outside the course, or the ' +
      "course's own site-out/ folder). It reads course files only as regular files inside the course, and " +
      'sanitizes the SVG images it publishes. A publish build shows the lessons site.publish allows (done ones ' +
      'by default) and lists the ones left out, and fails when it would publish none; it is recorded as a ' +
      'site.build event when the course has a state. Mermaid diagrams render at build time when a Chromium is ' +
      "found ($CODELABGEN_CHROMIUM, /usr/bin/chromium-headless-shell, /usr/bin/chromium, or Playwright's own: " +
      'npx playwright install chromium), ' +
      "cached by content hash; without one they are left to the reader's browser, with a warning. A broken " +
      'diagram or code reference fails a publish build.',
    options: {
      out: {
        type: 'string',
        value: 'DIR',
        help: "output folder outside the course (default: ./site-out; inside a course: the course's site-out/)",
      },
      base: { type: 'string', value: 'PATH', help: 'URL path the site is served under, e.g. /my-course/ (default: /)' },
      site: { type: 'string', value: 'URL', help: 'public URL of the site; also writes a sitemap' },
      drafts: { type: 'boolean', help: 'include every lesson with its stage badge and what is missing' },
      stats: { type: 'boolean', help: 'print HTML, CSS and JS bytes per page' },
      'strict-diagrams': {
        type: 'boolean',
        help: "fail (exit 1) when a diagram would be drawn in the reader's browser instead of at build time (no Chromium)",
      },
      ...JSON_OPTION,
    },
    examples: [
      'codelabgen site build --out ../site',
      'codelabgen site build --drafts --out /tmp/preview',
      'codelabgen site build --base /my-course/ --site https://me.github.io/my-course/',
    ],
  },
  {
    name: 'site dev',
    notATool: 'a long-running preview server',
    summary: 'live preview of the course with every lesson (reloads on course changes)',
    options: {
      port: { type: 'string', value: 'N', help: 'port to listen on (default: 4321)' },
      host: {
        type: 'string',
        value: 'ADDR',
        help: 'address to listen on, e.g. 0.0.0.0 for every network (default: localhost)',
      },
      open: { type: 'boolean', help: 'open the site in the browser once it is served' },
      base: { type: 'string', value: 'PATH', help: 'URL path to serve under (default: /)' },
    },
  },
  {
    name: 'site preview',
    notATool: 'a long-running preview server',
    summary: 'serve a built site locally',
    options: {
      out: {
        type: 'string',
        value: 'DIR',
        help: "the built site (default: ./site-out; inside a course: the course's site-out/); given, no course is needed",
      },
      port: { type: 'string', value: 'N', help: 'port to listen on (default: 4321)' },
      host: {
        type: 'string',
        value: 'ADDR',
        help: 'address to listen on, e.g. 0.0.0.0 for every network (default: localhost)',
      },
      open: { type: 'boolean', help: 'open the site in the browser once it is served' },
      base: { type: 'string', value: 'PATH', help: 'URL path to serve under (default: the --base it was built with)' },
    },
  },
  {
    name: 'mcp',
    notATool: 'the server itself',
    summary: 'serve the protocol to agent hosts over stdio or HTTP (Model Context Protocol): one tool per command',
    description:
      'Runs a Model Context Protocol server on stdin/stdout until the client goes away, or with --http on ' +
      'Streamable HTTP (endpoint /mcp, several sessions at once) until SIGINT/SIGTERM. Its tools are the ' +
      'commands of this table (state next → state_next, with the options as arguments and --json implied); ' +
      'every call is the same locked, logged commit as the CLI command, re-reading the course, so the CLI and ' +
      'MCP clients can work on one course at once. Over HTTP the Host and Origin headers must name the bound ' +
      'address (DNS-rebinding protection; loopback names only for a loopback bind) and, when ' +
      '$CODELABGEN_MCP_TOKEN is set, requests need `Authorization: Bearer <token>`; an address other than ' +
      'loopback is refused without that token. A session idle for 30 minutes with no request open (its client ' +
      'went away without ending it) is closed. The tools and their arguments: `codelabgen --help` and each ' +
      "command's --help.",
    options: {
      http: {
        type: 'string',
        value: '[HOST:]PORT',
        help: 'serve Streamable HTTP on http://HOST:PORT/mcp instead of stdio (HOST: 127.0.0.1 unless given; PORT 0: any free port, printed on stderr)',
      },
    },
    examples: [
      'codelabgen mcp --course .',
      'claude mcp add codelabgen -- npx codelabgen mcp --course .',
      'codelabgen mcp --http 8808',
    ],
  },
  {
    name: 'completion',
    notATool: 'a shell completion script',
    args: 'bash|zsh|fish',
    positionals: { min: 1, max: 1 },
    summary: 'print a shell completion script (generated from this command table)',
    needsCourse: false,
    examples: [
      'eval "$(codelabgen completion bash)"',
      'codelabgen completion fish > ~/.config/fish/completions/codelabgen.fish',
    ],
  },
];
