// `.codelabgen/config.yaml`: course-wide settings, budgets and the default test runtime.
import { z } from 'zod';
import { ArgvSchema, RuntimeSchema } from './common.ts';
import { refinement } from './refine.ts';

export const BudgetsSchema = z
  .strictObject({
    fix_attempts: z
      .int()
      .min(1)
      .max(100)
      .default(3)
      .describe('Failed verifications a lesson may use before it is blocked automatically.'),
    review_rounds: z
      .int()
      .min(0)
      .max(100)
      .default(2)
      .describe('Moves back from `notes` or `reviewed` a lesson may use.'),
    parallel: z.int().min(1).max(64).default(3).describe('Modules worked on in parallel in the lessons phase.'),
    cost_usd: z
      .number()
      .positive()
      .max(1e6)
      .optional()
      .describe(
        'US dollars the workers may spend (the `usage.cost_usd` their tasks recorded); once reached, `state task start` is refused until it is raised.',
      ),
    tokens: z
      .int()
      .min(1)
      .max(1e13)
      .optional()
      .describe(
        'Tokens the workers may use (input, output, cache reads and cache writes their tasks recorded); ' +
          'once reached, `state task start` is refused until it is raised.',
      ),
  })
  .describe('Budgets that bound rework.');

export const NotifySchema = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe(
        'POSTs a small JSON body (course, kind, text, command, tool) to this URL for each new item that needs a human; plain enough for ntfy-style services.',
      ),
    command: ArgvSchema.optional().describe(
      'Runs this argv (no shell) for each new item that needs a human, with the same JSON on its stdin.',
    ),
  })
  .describe(
    'Tell a person when the course needs one (a gate reached, a lesson blocked, a budget used up, a task ' +
      'interrupted): once per item, never blocking the command that caused it.',
  );

export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;

export const VerifySettingsSchema = z
  .strictObject({
    sandbox: z
      .enum(SANDBOX_MODES)
      .default('auto')
      .describe(
        'Run lesson tests inside bubblewrap (docs/verify.md): `auto` when it is usable (the run-result says ' +
          'which), `required` refuses to run tests without it. `off` is not honoured from a course (it runs as ' +
          '`auto`, with a warning): only CODELABGEN_SANDBOX=off on the machine runs tests without it.',
      ),
    max_write_mb: z
      .int()
      .min(1)
      .max(1_000_000)
      .default(100)
      .describe(
        'MiB a test run may add to its lesson folder (measured after the run, dependencies included; `npm ci` ' +
          'is not counted); a run that adds more fails naming the largest file.',
      ),
    max_processes: z
      .int()
      .min(16)
      .max(1_000_000)
      .default(1024)
      .describe(
        'Processes and threads each lesson step (npm ci, the tests) may have at once (docs/verify.md, "Limits"); ' +
          'a fork past it fails, and a run that reaches it fails. A lesson spec may set its own `max_processes`.',
      ),
  })
  .describe('How `verify` runs lesson tests.');

export { SITE_BACKGROUND, contrastRatio, darkAccent, worstContrast } from './contrast.ts';

const HexColourSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb');

export const PUBLISH_RULES = ['done', 'verified', 'all'] as const;

export const SiteConfigSchema = z
  .strictObject({
    publish: z
      .enum(PUBLISH_RULES)
      .default('done')
      .describe(
        'Which lessons a publish build (`site build` without --drafts) shows: `done` those at stage done (the ' +
          'agent protocol), `verified` also every lesson whose tests passed (stage verified or later, or its ' +
          'last `verify` run passed), `all` every lesson. Drafts builds and `site dev` show all of them.',
      ),
    report: z
      .boolean()
      .default(false)
      .describe(
        'Publish the report page and production details (stages, code hashes, run numbers). Always on in drafts and `site dev`.',
      ),
    logo: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Logo image shown before the course title, a path relative to the course folder (SVG, PNG, JPEG or WebP, up to 200 KB).',
      ),
    favicon: z
      .string()
      .min(1)
      .optional()
      .describe('Favicon, a path relative to the course folder (SVG, PNG or ICO, up to 100 KB); default: the logo.'),
    accent: HexColourSchema.check(refinement('accentReadableOnLight'))
      .optional()
      .describe(
        'Link and highlight colour on light pages, #rrggbb; refused below WCAG AA contrast (4.5:1) with the light page and panel backgrounds.',
      ),
    accent_dark: HexColourSchema.check(refinement('accentReadableOnDark'))
      .optional()
      .describe(
        'Accent on dark pages, #rrggbb; default: `accent` lightened until it reaches 4.5:1 on the dark backgrounds.',
      ),
    footer: z.string().max(500).optional().describe('Footer text of every page (plain text).'),
    edit_url: z
      .string()
      .regex(/^https?:\/\/\S*\{path\}\S*$/, 'an http(s) URL containing {path}')
      .optional()
      .describe(
        '"Edit this page" link of each lesson doc: `{path}` becomes the doc\'s path in the course, e.g. https://github.com/me/course/edit/main/{path}.',
      ),
    repo_url: z
      .url({ protocol: /^https?$/ })
      .optional()
      .describe("The course's source repository, linked in the header."),
    lang: z
      .string()
      .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'a BCP 47 language tag such as en or pt-BR')
      .default('en')
      .describe('Language of the pages (the html lang attribute).'),
    mdx: z
      .boolean()
      .optional()
      .describe(
        'Compile `.mdx` lesson docs with MDX (JSX, expressions, the built-in components); MDX runs code at ' +
          "build time with the builder's rights, so it is off by default and an `.mdx` doc is refused without " +
          'it.',
      ),
  })
  .describe('The published course site: learner view options and branding.');

export const ConfigSchema = z
  .strictObject({
    schema_version: z.literal(1).default(1).describe("Version of this file's format."),
    title: z.string().min(1).max(200).optional().describe('Course title (state.json keeps the one given to `init`).'),
    topic: z.string().max(500).optional().describe('What the course is about, in a phrase.'),
    language: z.string().max(40).optional().describe('Language of the lesson code, e.g. "typescript".'),
    runtime: RuntimeSchema.default('node').describe('Default runtime for lesson tests; a lesson spec may override it.'),
    test_command: ArgvSchema.optional().describe(
      "Default argv for the `custom` runtime (or to override a runtime's default command).",
    ),
    verify_timeout_seconds: z
      .int()
      .min(1)
      .max(86400)
      .default(300)
      .describe(
        "Seconds for all of a lesson's verify steps together (npm ci, the tests) before the running one is killed (with its whole process group).",
      ),
    task_lease: z
      .string()
      .regex(/^[1-9][0-9]{0,5}[smh]$/, 'expected a duration like "20m", "90s" or "2h"')
      .default('20m')
      .describe(
        'How long a task counts as running without a heartbeat (`state task heartbeat`); `state task start ' +
          '--lease` overrides it. After it, `state next` lists the task as interrupted.',
      ),
    budgets: BudgetsSchema.default({ fix_attempts: 3, review_rounds: 2, parallel: 3 }),
    verify: VerifySettingsSchema.default({ sandbox: 'auto', max_write_mb: 100, max_processes: 1024 }),
    site: SiteConfigSchema.default({ publish: 'done', report: false, lang: 'en' }),
    notify: NotifySchema.optional(),
  })
  .describe('Course configuration: `.codelabgen/config.yaml`.');

export type Config = z.infer<typeof ConfigSchema>;
export type Budgets = z.infer<typeof BudgetsSchema>;
export type SandboxMode = z.infer<typeof VerifySettingsSchema>['sandbox'];
export type SiteConfig = z.infer<typeof SiteConfigSchema>;
export type NotifyConfig = z.infer<typeof NotifySchema>;
