// The npm package on its own and the deploy workflow that installs it. `npm pack` of this
// repository goes into a generated course repository that depends on the tarball as the workflow's
// header tells authors to, installed by `npm ci` from the local npm cache (once for the file).
// docs/deploy/github-pages.yml is checked against the GitHub workflow schema (offline,
// @action-validator/cli) and run here: jobs in `needs` order, matrix expanded, every `run:` step in
// bash as on a runner, each `uses:` action replaced by a local equivalent (checkout copies the course
// repository, artifacts are folders). The installed CLI then also builds the example course.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { load } from 'js-yaml';
import { generateCourse } from '../bench/generate-course.ts';
import { freePort, stop, waitForServer } from '../e2e/dev-server.ts';
import { findChromium } from '../pipeline/site/diagrams.ts';
import { npm, packInto, writeConsumer } from './package-fixture.ts';
import { REPO_ROOT, scratchDir } from './testing.ts';

const WORKFLOW = path.join(REPO_ROOT, 'docs', 'deploy', 'github-pages.yml');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown[]> };
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  concurrency?: { 'cancel-in-progress'?: boolean };
  jobs: Record<string, Job>;
}

test('the deploy workflow passes the GitHub workflow schema', () => {
  const validator = path.join(REPO_ROOT, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
  const result = spawnSync(process.execPath, [validator, WORKFLOW], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  const workflow = load(readText(WORKFLOW)) as Workflow;
  assert.equal(workflow.concurrency?.['cancel-in-progress'], false, 'a running Pages deploy must never be cancelled');
  assert.deepEqual(workflow.permissions, { contents: 'read' }, 'only the deploy job may write');
  assert.deepEqual(workflow.jobs.deploy?.permissions, { pages: 'write', 'id-token': 'write' });
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  for (const step of steps.filter((s) => s.uses?.startsWith('actions/checkout@'))) assert.equal(step.with?.['fetch-depth'], 0, 'every checkout fetches the whole history');
  assert.ok(steps.some((s) => s.uses?.startsWith('actions/configure-pages@')), 'the base path comes from actions/configure-pages');
  assert.ok(steps.some((s) => s.uses?.startsWith('astral-sh/setup-uv@')), 'python-uv courses need uv');
  assert.ok(steps.some((s) => /verify --all/.test(s.run ?? '') && s.env?.CODELABGEN_SANDBOX === 'required'), 'CI verifies lessons in the sandbox only');
  assert.equal(readText(path.join(REPO_ROOT, 'templates', 'ci', 'github-pages.yml')), readText(WORKFLOW), 'init --ci github writes templates/ci/github-pages.yml: keep it the same as docs/deploy/github-pages.yml');
});

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** Jobs in an order that respects `needs`, each matrix expanded into its instances. */
function jobInstances(workflow: Workflow): Array<{ job: string; matrix: Record<string, unknown> }> {
  const done = new Set<string>();
  const order: Array<{ job: string; matrix: Record<string, unknown> }> = [];
  while (done.size < Object.keys(workflow.jobs).length) {
    const ready = Object.entries(workflow.jobs).filter(([name, job]) => !done.has(name) && [job.needs ?? []].flat().every((need) => done.has(need)));
    assert.ok(ready.length > 0, 'the jobs\' needs form a cycle');
    for (const [name, job] of ready) {
      let matrices: Array<Record<string, unknown>> = [{}];
      for (const [key, values] of Object.entries(job.strategy?.matrix ?? {})) matrices = matrices.flatMap((m) => values.map((value) => ({ ...m, [key]: value })));
      for (const matrix of matrices) order.push({ job: name, matrix });
      done.add(name);
    }
  }
  return order;
}

/** Every file under `dir` (workspace-relative paths). */
function filesUnder(dir: string, root: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

const work = scratchDir('codelabgen-package-');
const repo = path.join(work, 'course-repo');
let packedFiles: string[] = [];
/** A folder where `npm ci` of the course repository ran (the workflow's first job, else its own). */
let installed: string | undefined;

before(async () => {
  assert.ok(existsSync(path.join(REPO_ROOT, 'dist', 'main.mjs')), 'build the CLI first: node scripts/build.mjs');
  await generateCourse(repo, { lessons: 3, perModule: 2, stageOf: () => 'done', diagram: () => null });
  mkdirSync(path.join(repo, 'vendor'));
  const { filename, files } = packInto(path.join(repo, 'vendor'));
  packedFiles = files;
  writeConsumer(repo, `vendor/${filename}`);
  // The course repository as GitHub holds it: one commit, cloned by the workflow's checkout steps.
  const git = (...args: string[]) => assert.equal(spawnSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } }).status, 0, `git ${args.join(' ')}`);
  // No verify runs committed: the site's badges must come from the workflow's own verify jobs.
  rmSync(path.join(repo, '.codelabgen', 'runs'), { recursive: true, force: true });
  git('init', '--quiet', '--initial-branch=main');
  git('add', '--all');
  git('commit', '--quiet', '--message', 'course');
});

test('the deploy workflow runs: verify shards, merge, build and deploy succeed', { timeout: 600_000 }, async (t) => {

  const workflow = load(readText(WORKFLOW)) as Workflow;
  const artifacts = path.join(work, 'artifacts');
  const github = { 'github.event.repository.name': 'my-course', 'github.repository_owner': 'someone', 'github.run_id': '1' };
  const chromium = findChromium() ?? 'none';
  const ran: string[] = [];

  for (const { job: jobName, matrix } of jobInstances(workflow)) {
    const job = workflow.jobs[jobName]!;
    const label = `${jobName}${Object.keys(matrix).length ? ` ${JSON.stringify(matrix)}` : ''}`;
    const workspace = path.join(work, 'runners', `${jobName}-${Object.values(matrix).join('-') || '0'}`);
    const runnerTemp = path.join(workspace, '..', `${path.basename(workspace)}-temp`);
    mkdirSync(runnerTemp, { recursive: true });
    const env: Record<string, string> = {};
    const outputs: Record<string, string> = {};
    const expand = (text: string): string =>
      text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_all, expression: string) => {
        const [scope, ...rest] = expression.split('.');
        const value =
          scope === 'matrix' ? matrix[rest.join('.')]
          : scope === 'env' ? env[rest.join('.')]
          : scope === 'runner' && rest[0] === 'temp' ? runnerTemp
          : scope === 'steps' && rest[1] === 'outputs' ? outputs[`${rest[0]}.${rest[2]}`]
          : (github as Record<string, string>)[expression];
        assert.ok(value !== undefined, `${label}: the local run does not know \${{ ${expression} }}`);
        return String(value);
      });
    for (const [key, value] of Object.entries({ ...workflow.env, ...job.env })) env[key] = expand(String(value));

    for (const step of job.steps) {
      assert.ok(step.if === undefined || step.if === 'always()', `${label}: the local run does not evaluate if: ${step.if}`);
      const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([key, value]) => [key, expand(String(value))]));
      const action = step.uses?.replace(/@.*$/, '');
      ran.push(`${label}: ${step.name ?? step.uses ?? step.run}`);
      if (action === 'actions/checkout') {
        // A clone of the course repository's commit, as deep as the step asks (the default is depth 1).
        const depth = inputs['fetch-depth'] === '0' ? [] : ['--depth', inputs['fetch-depth'] ?? '1'];
        const clone = spawnSync('git', ['clone', '--quiet', ...depth, `file://${repo}`, workspace], { encoding: 'utf8' });
        assert.equal(clone.status, 0, clone.stderr);
      } else if (action === 'actions/configure-pages') {
        outputs[`${step.id}.base_path`] = '/my-course';
        outputs[`${step.id}.base_url`] = 'https://someone.github.io/my-course';
      } else if (action === 'astral-sh/setup-uv') continue;
      else if (action === 'actions/setup-node') assert.equal(inputs['node-version'], '22');
      else if (action === 'actions/setup-python') continue;
      else if (action === 'browser-actions/setup-chrome') outputs[`${step.id}.chrome-path`] = chromium;
      else if (action === 'actions/cache') assert.equal(inputs.path, '~/.cache/codelabgen/diagrams', `${label}: the cache keeps another folder than the diagram cache`); // an optimization: nothing to restore locally
      else if (action === 'actions/upload-artifact') {
        // upload-artifact (v4 and later) leaves out hidden files (any path segment starting with ".") unless told.
        const from = path.join(workspace, inputs.path!);
        const files = filesUnder(from, workspace).filter((file) => inputs['include-hidden-files'] === 'true' || !file.split(path.sep).some((part) => part.startsWith('.')));
        for (const file of files) cpSync(path.join(workspace, file), path.join(artifacts, inputs.name!, path.relative(from, path.join(workspace, file))));
      } else if (action === 'actions/download-artifact') {
        const pattern = new RegExp(`^${(inputs.pattern ?? '*').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
        for (const name of existsSync(artifacts) ? readdirSync(artifacts) : []) if (pattern.test(name)) cpSync(path.join(artifacts, name), path.join(workspace, inputs.path!, name), { recursive: true });
      } else if (action === 'actions/upload-pages-artifact') {
        const site = path.resolve(workspace, inputs.path!);
        assert.ok(existsSync(path.join(site, 'index.html')), `${label}: no site at ${inputs.path}`);
        cpSync(site, path.join(artifacts, 'github-pages'), { recursive: true });
      } else if (action === 'actions/deploy-pages') {
        assert.ok(existsSync(path.join(artifacts, 'github-pages', 'index.html')), `${label}: nothing to deploy`);
        outputs[`${step.id}.page_url`] = 'https://someone.github.io/my-course/';
      } else if (step.uses !== undefined) assert.fail(`${label}: no local equivalent for ${step.uses}`);
      else if (/^npm ci\b/.test(step.run ?? '') && installed !== undefined) {
        // The same install in a later job: reuse the first one (as setup-node's npm cache makes it cheap).
        symlinkSync(path.join(installed, 'node_modules'), path.join(workspace, 'node_modules'));
      } else {
        const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(String(value))]));
        const npmLogs = path.join(runnerTemp, 'npm-logs');
        const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expand(step.run!)], {
          cwd: workspace,
          encoding: 'utf8',
          timeout: 300_000,
          env: {
            ...process.env,
            PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, // setup-node's Node first
            CODELABGEN_COURSE: undefined,
            NO_COLOR: '1',
            // From the cache the repository's own install filled, whatever the machine's load; npm's
            // log goes where a failure can print it.
            npm_config_prefer_offline: 'true',
            npm_config_fetch_timeout: '600000',
            npm_config_logs_dir: npmLogs,
            CI: 'true',
            GITHUB_WORKSPACE: workspace,
            RUNNER_TEMP: runnerTemp,
            ...env,
            ...stepEnv,
          },
        });
        if (result.status !== 0) {
          const logs = existsSync(npmLogs) ? readdirSync(npmLogs).sort() : [];
          const log = logs.length > 0 ? `\nnpm's log (${logs.at(-1)}), last lines:\n${readText(path.join(npmLogs, logs.at(-1)!)).split('\n').slice(-80).join('\n')}` : '';
          assert.fail(`${label}: "${step.name ?? step.run}" exited ${result.status}\n${result.stdout}${result.stderr}${log}`);
        }
        t.diagnostic(`${label}: ${step.name ?? step.run}: ${result.stdout.trim().split('\n').at(-1)}`);
        if (/^npm ci\b/.test(step.run ?? '')) installed = workspace;
      }
    }
  }
  assert.deepEqual(readdirSync(artifacts).sort(), ['github-pages', 'runs-1', 'runs-2', 'runs-3']);
  assert.ok(ran.some((line) => line.startsWith('deploy: ')), 'the deploy job did not run');
  assert.ok(existsSync(path.join(artifacts, 'github-pages', 'lessons')), 'the deployed site has no lessons');
  for (const lesson of readdirSync(path.join(artifacts, 'github-pages', 'lessons'))) {
    assert.match(readText(path.join(artifacts, 'github-pages', 'lessons', lesson, 'index.html')), /tests passed \d+\/\d+/, `${lesson}: no badge from the workflow's verify runs`);
  }
});

test('the package holds what runs, and the installed CLI inits a course, takes a hand author\'s path (mounted in a Starlight site too) and builds the example course', { timeout: 600_000 }, async () => {
  const files = packedFiles;
  for (const needed of ['bin/codelabgen.cjs', 'dist/main.mjs', 'dist/state.cjs', 'dist/markdown.mjs', 'dist/astro.mjs', 'dist/site-worker.mjs', 'dist/site/routes/index.astro', 'dist/site/collections.js', 'dist/site/content.config.js', 'dist/site-read.mjs', 'dist/site-expressive-code.mjs', 'content-schemas/json/curriculum.schema.json', 'types/astro.d.ts', 'types/content.d.ts']) assert.ok(files.includes(needed), `${needed} is not in the package`);
  // JavaScript only: the site's modules compiled (scripts/build-site.mjs), its Astro components as they are.
  assert.deepEqual(files.filter((file) => /\.[mc]?tsx?$/.test(file) && !file.endsWith('.d.ts')), [], 'TypeScript sources are in the package');
  // templates/ holds the lesson scaffold init --example writes, its test included.
  const unwanted = files.filter((file) => /\.map$|^(cli|e2e|scripts|bench|examples|docs|site|pipeline)\/|^astro\.config|(^|\/)tsconfig\.json$|(^|\/)(test-)?fixtures?([.\/-]|$)|state-fixture/.test(file) || (/(\.|\/)test\b/.test(file) && !file.startsWith('templates/')));
  assert.deepEqual(unwanted, [], 'tests, sources of the bundle or fixtures are in the package');

  if (installed === undefined) {
    const install = npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: repo });
    assert.equal(install.code, 0, `npm ci of the tarball failed:\n${install.stderr}`);
    installed = repo;
  }
  const dir = path.join(work, 'author');
  mkdirSync(dir);
  symlinkSync(path.join(installed, 'node_modules'), path.join(dir, 'node_modules'));

  const codelabgen = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [path.join(dir, 'node_modules', '.bin', 'codelabgen'), ...args], { cwd: dir, encoding: 'utf8', timeout: 300_000, env: { ...process.env, NO_COLOR: '1', CODELABGEN_COURSE: undefined, ...env } });
  const init = codelabgen(['init', 'new-course', '--title', 'From the tarball']);
  assert.equal(init.status, 0, init.stderr);
  assert.ok(existsSync(path.join(dir, 'new-course', '.codelabgen', 'state.json')));
  // A state command runs from dist/state.cjs, through the .bin link the package manager made.
  const next = codelabgen(['state', 'next', '--course', 'new-course']);
  assert.equal(next.status, 0, next.stderr);
  assert.equal((JSON.parse(next.stdout) as { phase: string }).phase, 'init');

  await handAuthor(dir);
  await starlightHost(installed, path.join(dir, 'my-course'));

  cpSync(path.join(REPO_ROOT, 'examples', 'node-streams'), path.join(dir, 'course'), { recursive: true, filter: (from) => !/__pycache__|\.pytest_cache|node_modules/.test(from) });
  // Diagrams are left to the browser here (rendering nine takes ~20 s); what build-time rendering
  // loads must still resolve from the installed package: playwright, and mermaid's minified build.
  const playwright = spawnSync(process.execPath, ['--input-type=module', '-e', "import.meta.resolve('playwright'); import.meta.resolve('mermaid/dist/mermaid.min.js')"], { cwd: path.join(dir, 'node_modules', 'codelabgen'), encoding: 'utf8' });
  assert.equal(playwright.status, 0, `playwright is not installed with codelabgen, so diagrams cannot render at build time:\n${playwright.stderr}`);
  const build = codelabgen(['site', 'build', '--course', 'course', '--out', 'site', '--drafts'], { CODELABGEN_CHROMIUM: 'none', CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams') });
  assert.equal(build.status, 0, build.stderr);
  assert.match(build.stdout, /diagrams: 0 rendered, 0 cached, 0 failed, 9 client-side\n/);
  assert.match(build.stdout, /built \d+ pages \(6 lessons, drafts\)/);
  for (const page of ['index.html', 'search/index.html', 'pagefind/pagefind.js']) assert.ok(existsSync(path.join(dir, 'site', page)), `${page} missing`);
  assert.ok(!existsSync(path.join(dir, 'course', '.astro')), 'the build wrote into the course');
});

/**
 * A course author's own path with the installed package, no agent protocol: `init --example`, a
 * second lesson, `site dev` while the doc is saved by rename (an editor's atomic save) and in place,
 * each save visible in the served page, then `verify --all` and a publish `site build` that shows
 * the lessons whose tests passed, with their badge (site.publish: verified, set by init --example).
 */
async function handAuthor(dir: string): Promise<void> {
  // README "Publish your own course": the course is the repository, beside its package.json.
  const course = path.join(dir, 'my-course');
  mkdirSync(course);
  writeFileSync(path.join(course, 'package.json'), '{ "private": true }\n');
  symlinkSync(path.join(dir, 'node_modules'), path.join(course, 'node_modules'));
  const ok = (args: string[], cwd = course) => {
    const result = spawnSync(process.execPath, [path.join(course, 'node_modules', '.bin', 'codelabgen'), ...args], { cwd, encoding: 'utf8', timeout: 300_000, env: { ...process.env, NO_COLOR: '1', CODELABGEN_COURSE: undefined, CODELABGEN_CHROMIUM: 'none', CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams') } });
    assert.equal(result.status, 0, `codelabgen ${args.join(' ')}: ${result.stdout}${result.stderr}`);
    return result.stdout;
  };
  const init = ok(['init', '.', '--title', 'My own course', '--example', '--ci', 'github']);
  assert.match(init, /^wrote \.gitignore: commit \.codelabgen\/ /m);
  // Run from the project's own install, the printed commands are the ones to type there.
  assert.match(init, /^preview: npx codelabgen site dev$/m);
  assert.match(init, /^publish: npx codelabgen verify --all && npx codelabgen site build --out \.\.\/site-out$/m);
  assert.equal(readFileSync(path.join(course, '.github', 'workflows', 'course-site.yml'), 'utf8'), readText(WORKFLOW));
  assert.match(readFileSync(path.join(course, '.gitignore'), 'utf8'), /^\.codelabgen\/lock$/m);
  ok(['new', 'lesson', '1', 'Second steps']);
  const lessonDir = readdirSync(path.join(course, '1-first-steps')).find((name) => name.startsWith('1.2-'));
  assert.ok(lessonDir, 'new lesson made no folder');
  const doc = path.join(course, '1-first-steps', lessonDir, 'docs', 'readalong.md');
  const port = await freePort();
  const dev = spawn(process.execPath, [path.join(dir, 'node_modules', '.bin', 'codelabgen'), 'site', 'dev', '--port', String(port)], { cwd: course, env: { ...process.env, NO_COLOR: '1', CODELABGEN_COURSE: undefined, CODELABGEN_CHROMIUM: 'none' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  dev.stdout.on('data', (d: Buffer) => (log += d));
  dev.stderr.on('data', (d: Buffer) => (log += d));
  try {
    const url = `http://localhost:${port}/lessons/${lessonDir}/`;
    await waitForServer(url, 180_000, dev, () => log);
    const shows = async (marker: string) => {
      for (let tries = 0; tries < 60; tries++) {
        if ((await (await fetch(url)).text()).includes(marker)) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.fail(`site dev never showed "${marker}" after the save:\n${log}`);
    };
    for (let i = 1; i <= 3; i++) {
      writeFileSync(`${doc}.tmp`, `# Second steps\n\nrename-saved ${i}\n`);
      renameSync(`${doc}.tmp`, doc);
      await shows(`rename-saved ${i}`);
      writeFileSync(doc, `# Second steps\n\nwritten in place ${i}\n`);
      await shows(`written in place ${i}`);
    }
  } finally {
    if (dev.pid !== undefined && dev.exitCode === null) process.kill(-dev.pid, 'SIGTERM');
    await stop(dev);
  }
  assert.match(ok(['verify', '--all']), /^2 lessons: 2 passed/m);
  const built = ok(['site', 'build', '--out', '../my-site', '--base', '/mine/']);
  assert.match(built, /built \d+ pages \(2 lessons\)/);
  assert.match(readFileSync(path.join(dir, 'my-site', 'lessons', lessonDir, 'index.html'), 'utf8'), /tests passed \d+\/\d+/);
  // site preview serves that build at its base without being told the base again.
  const previewPort = await freePort();
  const preview = spawn(process.execPath, [path.join(dir, 'node_modules', '.bin', 'codelabgen'), 'site', 'preview', '--out', '../my-site', '--port', String(previewPort)], { cwd: course, env: { ...process.env, NO_COLOR: '1', CODELABGEN_COURSE: undefined }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let previewLog = '';
  preview.stdout.on('data', (d: Buffer) => (previewLog += d));
  preview.stderr.on('data', (d: Buffer) => (previewLog += d));
  try {
    await waitForServer(`http://localhost:${previewPort}/mine/lessons/${lessonDir}/`, 60_000, preview, () => previewLog);
  } finally {
    if (preview.pid !== undefined && preview.exitCode === null) process.kill(-preview.pid, 'SIGTERM');
    await stop(preview);
  }
}

/**
 * The hand author's course mounted in a Starlight site with the installed package, as docs/site.md
 * ("With Starlight") says: integrations in the order `npx astro add starlight` leaves them. The site
 * lives beside the install's node_modules (Astro mis-joins the paths of a symlinked Starlight).
 */
async function starlightHost(installed: string, course: string): Promise<void> {
  const host = path.join(installed, 'starlight-host');
  const files: Record<string, string> = {
    // Starlight a direct dependency, as `npx astro add starlight` makes it (Astro bundles those).
    'package.json': JSON.stringify({ name: 'starlight-host', type: 'module', private: true, dependencies: { '@astrojs/starlight': '*', astro: '*', codelabgen: '*' } }),
    'astro.config.mjs': `import { defineConfig } from 'astro/config';
import codelabgen from 'codelabgen/astro';
import starlight from '@astrojs/starlight';
export default defineConfig({
  prefetch: false,
  integrations: [codelabgen({ course: ${JSON.stringify(course)}, prefix: '/course' }), starlight({ title: 'Host docs' })],
});
`,
    'ec.config.mjs': "import { pluginLineNumbers } from 'codelabgen/astro';\nexport default { plugins: [pluginLineNumbers()], defaultProps: { showLineNumbers: false } };\n",
    'src/content.config.ts': `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
import { codelabgenCollections } from 'codelabgen/content';
export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }), ...codelabgenCollections() };
`,
    'src/content/docs/index.md': '---\ntitle: Host docs home\n---\n\nThe host docs.\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(host, file)), { recursive: true });
    writeFileSync(path.join(host, file), text);
  }
  const events = readFileSync(path.join(course, '.codelabgen', 'events.jsonl'), 'utf8');
  const build = spawnSync(process.execPath, [path.join(installed, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], { cwd: host, encoding: 'utf8', timeout: 300_000, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CODELABGEN_CHROMIUM: 'none', CODELABGEN_COURSE: undefined } });
  assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
  const lessons = readdirSync(path.join(host, 'dist', 'course', 'lessons'));
  assert.equal(lessons.length, 2, `course lessons in the Starlight site: ${lessons.join(', ')}`);
  const page = readFileSync(path.join(host, 'dist', 'course', 'lessons', lessons[0]!, 'index.html'), 'utf8');
  assert.match(page, /class="gutter"/, 'the course\'s code lost its line numbers');
  assert.match(page, /tests passed \d+\/\d+/);
  assert.match(readFileSync(path.join(host, 'dist', 'index.html'), 'utf8'), /Host docs home/);
  assert.equal(readFileSync(path.join(course, '.codelabgen', 'events.jsonl'), 'utf8'), events, 'the host\'s astro build wrote into the course');
}
