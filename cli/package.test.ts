// The npm package on its own and the deploy workflow that installs it. `npm pack` of this
// repository goes into a generated course repository that depends on the tarball as the workflow's
// header tells authors to, installed by `npm ci --offline` from the npm cache the repository's own
// install filled (once for the file). docs/deploy/github-pages.yml is checked against the GitHub
// workflow schema (offline, @action-validator/cli) and run here on depth-1 clones (cli/workflow-run.ts).
// The installed CLI then takes a hand author's path, mounts that course in a Starlight site and
// builds the example course. Steps that do not need each other run at once: the workflow's jobs after
// its install, the hand author's path, the example course's build.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { load } from 'js-yaml';
import { generateCourse } from '../bench/generate-course.ts';
import { freePort, stop, waitForServer } from '../e2e/dev-server.ts';
import { codeBlockWidths } from '../e2e/code-widths.ts';
import { fetchPageAndAssets, noisyLines } from '../e2e/quiet-dev.ts';
import { findChromium } from '../pipeline/site/diagrams.ts';
import { packInto, run, writeConsumer } from './package-fixture.ts';
import { REPO_ROOT } from './testing.ts';
import { runWorkflow, type Workflow, type WorkflowRun } from './workflow-run.ts';

const WORKFLOW = path.join(REPO_ROOT, 'docs', 'deploy', 'github-pages.yml');
/** Paths the package must not hold: source maps, development folders, configs, fixtures. */
const NOT_SHIPPED = new RegExp(
  [
    String.raw`\.map$`,
    String.raw`^(cli|e2e|scripts|bench|examples|docs|site|pipeline)\/`,
    String.raw`^astro\.config`,
    String.raw`(^|\/)tsconfig\.json$`,
    String.raw`(^|\/)(test-)?fixtures?([.\/-]|$)`,
    'state-fixture',
  ].join('|'),
);

/**
 * A new folder on /dev/shm where there is one (a tmpfs), else in the temp folder. A run killed before
 * its after() leaves its folder in memory: those of runs started over an hour ago (scripts/node-tests.ts
 * stops a test file after 15 minutes) are removed first, by a process of their own.
 */
function workFolder(): string {
  const prefix = 'codelabgen-package-';
  try {
    const stale = readdirSync('/dev/shm')
      .filter((name) => name.startsWith(prefix))
      .map((name) => path.join('/dev/shm', name))
      .filter((dir) => Date.now() - (statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 3600_000);
    if (stale.length > 0) spawn('rm', ['-rf', ...stale], { detached: true, stdio: 'ignore' }).unref();
    return mkdtempSync(path.join('/dev/shm', prefix));
  } catch {
    return mkdtempSync(path.join(tmpdir(), prefix));
  }
}

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}

describe('the packed package, installed', { concurrency: true }, () => {
  // The install alone is some 24,000 files: removed by a process of its own once the tests are done,
  // so that the next test file need not wait for the disk (rm -rf: two thirds of the CPU of Node's
  // rmSync); not a tempDir(), which testing.ts removes when the file ends, waiting for it. In memory
  // where the machine has a tmpfs (/dev/shm, as memoryTempDir in cli/testing.ts): on ext4 the install
  // of its 440 MB took about twice the CPU (docs/testing.md, "Where the cores go").
  const work = workFolder();
  after(() => spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref());
  const repo = path.join(work, 'course-repo');
  let packedFiles: string[] = [];
  /** Started in before(): the workflow test awaits all of it, the package test its install. */
  let workflow: WorkflowRun;
  /** The same workflow with ALL_LESSONS_MUST_PASS: "true", on its install and with its verify jobs. */
  let strictWorkflow: WorkflowRun;

  before(async () => {
    assert.ok(existsSync(path.join(REPO_ROOT, 'dist', 'main.mjs')), 'build the CLI first: node scripts/build.mjs');
    // A hand-written course (site.publish: verified) whose lesson 1.2 fails its test.
    await generateCourse(repo, { lessons: 3, perModule: 2, stageOf: () => 'code', diagram: () => null });
    writeFileSync(
      path.join(repo, '.codelabgen', 'config.yaml'),
      `${readText(path.join(repo, '.codelabgen', 'config.yaml'))}site:\n  publish: verified\n`,
    );
    writeFileSync(
      path.join(repo, '1-module-1', '1.2-lesson-2', 'test', 'main.test.ts'),
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { value1 } from " +
        "'../src/main.ts';\ntest('value1 is two', () => assert.equal(value1, 2));\n",
    );
    mkdirSync(path.join(repo, 'vendor'));
    const { filename, files } = packInto(path.join(repo, 'vendor'));
    packedFiles = files;
    writeConsumer(repo, `vendor/${filename}`);
    // The course repository as GitHub holds it: one commit, cloned by the workflow's checkout steps.
    const gitEnv = {
      ...process.env,
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@b',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@b',
    };
    const git = async (...args: string[]) =>
      assert.equal((await run('git', args, { cwd: repo, env: gitEnv })).status, 0, `git ${args.join(' ')}`);
    // No verify runs committed: the site's badges must come from the workflow's own verify jobs.
    rmSync(path.join(repo, '.codelabgen', 'runs'), { recursive: true, force: true });
    await git('init', '--quiet', '--initial-branch=main');
    await git('add', '--all');
    await git('commit', '--quiet', '--message', 'course');
    const github = {
      'github.event.repository.name': 'my-course',
      'github.repository_owner': 'someone',
      'github.run_id': '1',
    };
    workflow = runWorkflow(load(readText(WORKFLOW)) as Workflow, {
      repo,
      work,
      github,
      chromium: findChromium() ?? 'none',
    });
    strictWorkflow = runWorkflow(load(readText(WORKFLOW)) as Workflow, {
      repo,
      work: path.join(work, 'all-must-pass'),
      github,
      chromium: findChromium() ?? 'none',
      env: { ALL_LESSONS_MUST_PASS: 'true' },
      installed: workflow.installed,
      // Its verify jobs name no ALL_LESSONS_MUST_PASS: they are the run's above, not run again.
      sameJobsAs: workflow,
    });
  });

  test('the deploy workflow passes the GitHub workflow schema', async () => {
    const validator = path.join(REPO_ROOT, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
    const result = await run(process.execPath, [validator, WORKFLOW], { env: { ...process.env, NO_COLOR: '1' } });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
    const workflow = load(readText(WORKFLOW)) as Workflow;
    assert.equal(workflow.concurrency?.['cancel-in-progress'], false, 'a running Pages deploy must never be cancelled');
    assert.deepEqual(workflow.permissions, { contents: 'read' }, 'only the deploy job may write');
    assert.deepEqual(workflow.jobs.deploy?.permissions, { pages: 'write', 'id-token': 'write' });
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    for (const step of steps.filter((s) => s.uses?.startsWith('actions/checkout@')))
      assert.equal(step.with?.['fetch-depth'], 0, 'every checkout fetches the whole history');
    assert.ok(
      steps.some((s) => s.uses?.startsWith('actions/configure-pages@')),
      'the base path comes from actions/configure-pages',
    );
    assert.ok(
      steps.some((s) => s.uses?.startsWith('astral-sh/setup-uv@')),
      'python-uv courses need uv',
    );
    assert.ok(
      steps.some((s) => /verify --all/.test(s.run ?? '') && s.env?.CODELABGEN_SANDBOX === 'required'),
      'CI verifies lessons in the sandbox only',
    );
    // ubuntu-latest's AppArmor denies bwrap its user namespace unless told (docs/deploy/README.md).
    const verifySteps = workflow.jobs.verify!.steps;
    const lift = verifySteps.findIndex((s) =>
      /sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/.test(s.run ?? ''),
    );
    assert.ok(
      lift >= 0 && lift < verifySteps.findIndex((s) => /verify --all/.test(s.run ?? '')),
      'the verify job lets bwrap create its namespaces before it verifies',
    );
    // A failed verify job still builds and deploys the lessons that passed.
    assert.equal(workflow.jobs.build?.if, '${{ !cancelled() }}');
    assert.equal(workflow.jobs.deploy?.if, "${{ !cancelled() && needs.build.result == 'success' }}");
    assert.equal(workflow.env?.ALL_LESSONS_MUST_PASS, 'false');
    assert.equal(
      readText(path.join(REPO_ROOT, 'templates', 'ci', 'github-pages.yml')),
      readText(WORKFLOW),
      'init --ci github writes templates/ci/github-pages.yml: keep it the same as docs/deploy/github-pages.yml',
    );
  });

  test('the deploy workflow runs on depth-1 clones with a failing lesson: verify fails on it, the others are built and deployed', {
    timeout: 600_000,
  }, async (t) => {
    const { steps, jobs } = await workflow.done;
    for (const step of steps)
      t.diagnostic(`${step.job}: ${step.step}: ${step.failure ?? step.stdout.trim().split('\n').at(-1) ?? ''}`);
    assert.deepEqual(jobs, { verify: 'failure', build: 'success', deploy: 'success' });
    const artifacts = workflow.artifacts;
    assert.deepEqual(readdirSync(artifacts).sort(), ['github-pages', 'runs-1', 'runs-2', 'runs-3']);
    // The failing lesson: one annotation on its failing test, in the shard that ran it.
    const annotations = steps
      .filter((step) => step.step === "Verify this shard's lessons")
      .flatMap((step) => step.stdout.split('\n').filter((line) => line.trim().startsWith('::')));
    assert.equal(annotations.length, 1, annotations.join('\n'));
    assert.match(
      annotations[0]!,
      /^::error file=1-module-1\/1\.2-lesson-2\/test\/main\.test\.ts,line=4,title=lesson 1\.2 failed::value1 is two/,
    );
    const shardSummaries = steps.filter((step) => step.step === "Verify this shard's lessons").map((s) => s.summary);
    assert.match(shardSummaries.join('\n'), /^\| 1\.2 \| ❌ failed \| 0\/1 \| value1 is two/m);
    assert.match(shardSummaries.join('\n'), /^Left out of the site \(site\.publish: verified .*\): 1\.2$/m);
    assert.ok(existsSync(path.join(artifacts, 'github-pages', 'lessons')), 'the deployed site has no lessons');
    const lessons = readdirSync(path.join(artifacts, 'github-pages', 'lessons')).sort();
    assert.deepEqual(lessons, ['1.1-lesson-1', '2.1-lesson-3'], `the deployed lessons: ${lessons.join(', ')}`);
    for (const lesson of lessons) {
      const page = readText(path.join(artifacts, 'github-pages', 'lessons', lesson, 'index.html'));
      assert.match(page, /tests passed \d+\/\d+/, `${lesson}: no badge from the workflow's verify runs`);
      // A shallow clone would date every lesson by its one commit: no date instead.
      assert.ok(!page.includes('Last updated'), `${lesson}: a last-updated date from a shallow clone`);
    }
    const build = steps.find((step) => step.step === 'Build the site under the Pages base path');
    assert.ok(build, 'the site build step did not run');
    assert.match(build.summary, /^### codelabgen site build$/m);
    assert.match(build.summary, /^\| 1\.2 \| Lesson 2 title \| tests failed in verify run 1: value1 is two/m);
    assert.equal(
      build.stderr.match(/^warning: the course is in a shallow git clone: lesson pages show no "Last updated" date$/gm)
        ?.length,
      1,
      build.stderr,
    );
    assert.match(
      build.stderr,
      /^hint: fetch the whole history for the dates: git fetch --unshallow, or actions\/checkout with fetch-depth: 0$/m,
    );
  });

  test('with ALL_LESSONS_MUST_PASS: "true" a failing lesson stops the build and nothing is deployed', {
    timeout: 600_000,
  }, async () => {
    const { steps, jobs } = await strictWorkflow.done;
    // The verify jobs are the ones of the run above (the test before): their failure is checked there.
    assert.deepEqual(jobs, { verify: 'failure', build: 'failure', deploy: 'skipped' });
    const merge = steps.find((step) => step.job === 'build' && step.step === 'Summarize the verification shards');
    assert.match(merge?.stdout ?? '', /^::error title=Not published::a lesson failed/m);
    const afterSummary = steps.slice(steps.indexOf(merge!) + 1).map((step) => step.step);
    assert.deepEqual(afterSummary, [], 'the build job went on after the failed summary (no site may be built)');
    assert.ok(!existsSync(path.join(strictWorkflow.artifacts, 'github-pages')), 'a site was uploaded');
  });

  test("the package holds what runs, and the installed CLI inits a course, takes a hand author's path (mounted in " +
    'a Starlight site too) and builds the example course', {
    timeout: 600_000,
  }, async () => {
    const files = packedFiles;
    for (const needed of [
      'bin/codelabgen.cjs',
      'dist/main.mjs',
      'dist/state.cjs',
      'dist/markdown.mjs',
      'dist/astro.mjs',
      'dist/site-worker.mjs',
      'dist/site/routes/index.astro',
      'dist/site/collections.js',
      'dist/site/content.config.js',
      'dist/site-read.mjs',
      'dist/site-expressive-code.mjs',
      'content-schemas/json/curriculum.schema.json',
      'types/astro.d.ts',
      'types/content.d.ts',
    ])
      assert.ok(files.includes(needed), `${needed} is not in the package`);
    // JavaScript only: the site's modules compiled (scripts/build-site.mjs), its Astro components as they are.
    assert.deepEqual(
      files.filter((file) => /\.[mc]?tsx?$/.test(file) && !file.endsWith('.d.ts')),
      [],
      'TypeScript sources are in the package',
    );
    // templates/ holds the lesson scaffold init --example writes, its test included.
    const unwanted = files.filter(
      (file) => NOT_SHIPPED.test(file) || (/(\.|\/)test\b/.test(file) && !file.startsWith('templates/')),
    );
    assert.deepEqual(unwanted, [], 'tests, sources of the bundle or fixtures are in the package');

    const installed = await workflow.installed;
    const dir = path.join(work, 'author');
    mkdirSync(dir);
    symlinkSync(path.join(installed, 'node_modules'), path.join(dir, 'node_modules'));
    await Promise.all([handAuthor(dir, installed), newCourseAndExample(dir)]);
  });
});

/** The installed CLI, run in `cwd`; fails the test with its output unless it exits 0. */
async function codelabgen(dir: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await run(process.execPath, [path.join(dir, 'node_modules', '.bin', 'codelabgen'), ...args], {
    cwd,
    timeout: 300_000,
    env: { ...process.env, NO_COLOR: '1', CODELABGEN_COURSE: undefined, ...env },
  });
  assert.equal(result.status, 0, `codelabgen ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** `init` of a new course and a state command, then a drafts build of the example course. */
async function newCourseAndExample(dir: string): Promise<void> {
  await codelabgen(dir, ['init', 'new-course', '--title', 'From the tarball'], dir);
  assert.ok(existsSync(path.join(dir, 'new-course', '.codelabgen', 'state.json')));
  // A state command runs from dist/state.cjs, through the .bin link the package manager made.
  const next = await codelabgen(dir, ['state', 'next', '--course', 'new-course'], dir);
  assert.equal((JSON.parse(next) as { phase: string }).phase, 'init');

  cpSync(path.join(REPO_ROOT, 'examples', 'node-streams'), path.join(dir, 'course'), {
    recursive: true,
    filter: (from) => !/__pycache__|\.pytest_cache|node_modules/.test(from),
  });
  // Diagrams are left to the browser here (rendering nine takes ~20 s); what build-time rendering
  // loads must still resolve from the installed package: playwright, and mermaid's minified build.
  const playwright = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import.meta.resolve('playwright'); import.meta.resolve('mermaid/dist/mermaid.min.js')",
    ],
    { cwd: path.join(dir, 'node_modules', 'codelabgen') },
  );
  assert.equal(
    playwright.status,
    0,
    `playwright is not installed with codelabgen, so diagrams cannot render at build time:\n${playwright.stderr}`,
  );
  const build = await codelabgen(dir, ['site', 'build', '--course', 'course', '--out', 'site', '--drafts'], dir, {
    CODELABGEN_CHROMIUM: 'none',
    CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams'),
  });
  assert.match(build, /diagrams: 0 rendered, 0 cached, 0 failed, 9 client-side\n/);
  assert.match(build, /built \d+ pages \(6 lessons, drafts\)/);
  for (const page of ['index.html', 'search/index.html', 'pagefind/pagefind.js'])
    assert.ok(existsSync(path.join(dir, 'site', page)), `${page} missing`);
  assert.ok(!existsSync(path.join(dir, 'course', '.astro')), 'the build wrote into the course');
}

/**
 * A course author's own path with the installed package, no agent protocol: `init --example`, a
 * second lesson, `verify --all`, `site dev` while the doc is saved by rename (an editor's atomic
 * save) and in place, each save visible in the served page, a publish `site build` that shows the
 * lessons whose tests passed, with their badge (site.publish: verified, set by init --example), and
 * `site preview` of it; the course mounted in a Starlight site too.
 */
async function handAuthor(dir: string, installed: string): Promise<void> {
  // README "Publish your own course": the course is the repository, beside its package.json.
  const course = path.join(dir, 'my-course');
  mkdirSync(course);
  writeFileSync(path.join(course, 'package.json'), '{ "private": true }\n');
  symlinkSync(path.join(dir, 'node_modules'), path.join(course, 'node_modules'));
  const ok = (args: string[]) =>
    codelabgen(course, args, course, {
      CODELABGEN_CHROMIUM: 'none',
      CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams-author'),
    });
  const init = await ok(['init', '.', '--title', 'My own course', '--example', '--ci', 'github']);
  assert.match(init, /^wrote \.gitignore: commit \.codelabgen\/ /m);
  // Run from the project's own install, the printed commands are the ones to type there.
  assert.match(init, /^preview: npx codelabgen site dev$/m);
  assert.match(init, /^publish: npx codelabgen verify --all && npx codelabgen site build --out \.\.\/site-out$/m);
  assert.equal(readFileSync(path.join(course, '.github', 'workflows', 'course-site.yml'), 'utf8'), readText(WORKFLOW));
  assert.match(readFileSync(path.join(course, '.gitignore'), 'utf8'), /^\.codelabgen\/lock$/m);
  await ok(['new', 'lesson', '1', 'Second steps']);
  const lessonDir = readdirSync(path.join(course, '1-first-steps')).find((name) => name.startsWith('1.2-'));
  assert.ok(lessonDir, 'new lesson made no folder');
  // Verified before site dev, so that copies of the verified course can be built meanwhile (the
  // docs edited in site dev change no test): a publish build with its preview, and a Starlight
  // host. Each its own copy: the publish build records an event, which the host must not see.
  assert.match(await ok(['verify', '--all']), /^2 lessons: 2 passed/m);
  const copy = (name: string) => {
    cpSync(course, path.join(dir, name), { recursive: true, verbatimSymlinks: true });
    return path.join(dir, name);
  };
  const published = copy('my-course-published');
  const publish = async () => {
    const built = await codelabgen(published, ['site', 'build', '--out', '../my-site', '--base', '/mine/'], published, {
      CODELABGEN_CHROMIUM: 'none',
      CODELABGEN_DIAGRAM_CACHE: path.join(dir, 'diagrams-author'),
    });
    assert.match(built, /built \d+ pages \(2 lessons\)/);
    assert.match(
      readFileSync(path.join(dir, 'my-site', 'lessons', lessonDir, 'index.html'), 'utf8'),
      /tests passed \d+\/\d+/,
    );
    // site preview serves that build at its base without being told the base again, and from a
    // folder that holds no course (it serves a built folder).
    await serves(
      dir,
      dir,
      ['site', 'preview', '--out', 'my-site'],
      `/mine/lessons/${lessonDir}/`,
      60_000,
      async () => {},
    );
  };
  await Promise.all([
    siteDev(dir, course, lessonDir),
    publish(),
    starlightHost(installed, copy('my-course-for-starlight')),
  ]);
  // The same lesson page standalone and inside Starlight: the code blocks as wide in both.
  const chromiumPath = findChromium();
  assert.ok(chromiumPath, 'no Chromium to measure the code blocks with (set CODELABGEN_CHROMIUM)');
  const shots = path.join(REPO_ROOT, 'test-results', 'package-starlight');
  const [standalone, inStarlight] = await codeBlockWidths(chromiumPath, [
    {
      dist: path.join(dir, 'my-site'),
      base: '/mine/',
      page: `lessons/${lessonDir}/`,
      screenshot: path.join(shots, 'standalone.png'),
    },
    {
      dist: path.join(installed, 'starlight-host', 'dist'),
      base: '/',
      page: `course/lessons/${lessonDir}/`,
      screenshot: path.join(shots, 'in-starlight.png'),
    },
  ]);
  assert.ok(
    standalone!.length > 0 && standalone!.every((block) => Number.parseInt(block, 10) >= 300),
    `standalone code blocks: ${standalone!.join('; ')}`,
  );
  assert.deepEqual(inStarlight, standalone, 'code blocks (width, frame) inside Starlight and standalone');
}

/** `site dev` shows each save of the lesson's readalong: three by rename, three in place. */
async function siteDev(dir: string, course: string, lessonDir: string): Promise<void> {
  const doc = path.join(course, '1-first-steps', lessonDir, 'docs', 'readalong.md');
  await serves(dir, course, ['site', 'dev'], `/lessons/${lessonDir}/`, 180_000, async (url, log) => {
    // Up to a minute a save: the builds beside it share the cores.
    const shows = async (marker: string) => {
      const saved = Date.now();
      for (let tries = 0; tries < 240; tries++) {
        if ((await (await fetch(url)).text()).includes(marker)) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.fail(
        `site dev never showed "${marker}" in ${Date.now() - saved} ms after the save:\n${withoutRequests(log())}`,
      );
    };
    // A healthy course: its stylesheet and scripts are served from the install, and nothing warns.
    await fetchPageAndAssets(url);
    for (let i = 1; i <= 3; i++) {
      writeFileSync(`${doc}.tmp`, `# Second steps\n\nrename-saved ${i}\n`);
      renameSync(`${doc}.tmp`, doc);
      await shows(`rename-saved ${i}`);
      writeFileSync(doc, `# Second steps\n\nwritten in place ${i}\n`);
      await shows(`written in place ${i}`);
    }
    assert.deepEqual(noisyLines(log()), [], log());
  });
}

/** A dev server's output without its request lines (four a second while a test polls): its trace: lines are what tell. */
function withoutRequests(log: string): string {
  const lines = log.split('\n');
  const kept = lines.filter((line) => !/^\S+ \[\d{3}\] \//.test(line));
  return `${kept.join('\n')}\n(${lines.length - kept.length} request lines left out)`;
}

/** Runs the installed CLI's server command (`site dev`, `site preview`) until `page` answers, then `use`s it and stops it. */
async function serves(
  dir: string,
  course: string,
  args: string[],
  page: string,
  ms: number,
  use: (url: string, log: () => string) => Promise<void>,
): Promise<void> {
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [path.join(dir, 'node_modules', '.bin', 'codelabgen'), ...args, '--port', String(port)],
    {
      cwd: course,
      // CODELABGEN_DEV_TRACE: `site dev`'s trace: lines (each change reported, each sync) in a failure's log.
      env: {
        ...process.env,
        NO_COLOR: '1',
        CODELABGEN_COURSE: undefined,
        CODELABGEN_CHROMIUM: 'none',
        CODELABGEN_DEV_TRACE: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let log = '';
  server.stdout.on('data', (d: Buffer) => (log += d));
  server.stderr.on('data', (d: Buffer) => (log += d));
  try {
    const url = `http://localhost:${port}${page}`;
    await waitForServer(url, ms, server, () => log);
    await use(url, () => log);
  } finally {
    if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    await stop(server);
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
    'package.json': JSON.stringify({
      name: 'starlight-host',
      type: 'module',
      private: true,
      dependencies: { '@astrojs/starlight': '*', astro: '*', codelabgen: '*' },
    }),
    'astro.config.mjs': `import { defineConfig } from 'astro/config';
import codelabgen from 'codelabgen/astro';
import starlight from '@astrojs/starlight';
export default defineConfig({
  prefetch: false,
  integrations: [codelabgen({ course: ${JSON.stringify(course)}, prefix: '/course' }), starlight({ title: 'Host docs' })],
});
`,
    'ec.config.mjs':
      "import { pluginLineNumbers } from 'codelabgen/astro';\nexport default { plugins: [pluginLineNumbers()], defaultProps: { showLineNumbers: false } };\n",
    'src/content.config.ts': `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
import { codelabgenCollections } from 'codelabgen/content';
export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }), ...codelabgenCollections() };
`,
    'src/content/docs/index.md':
      '---\ntitle: Host docs home\n---\n\nThe host docs.\n\n```js\nconst host = true;\n```\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(host, file)), { recursive: true });
    writeFileSync(path.join(host, file), text);
  }
  const events = readFileSync(path.join(course, '.codelabgen', 'events.jsonl'), 'utf8');
  const build = await run(
    process.execPath,
    [path.join(installed, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'],
    {
      cwd: host,
      timeout: 300_000,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CODELABGEN_CHROMIUM: 'none', CODELABGEN_COURSE: undefined },
    },
  );
  assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
  const lessons = readdirSync(path.join(host, 'dist', 'course', 'lessons'));
  assert.equal(lessons.length, 2, `course lessons in the Starlight site: ${lessons.join(', ')}`);
  const page = readFileSync(path.join(host, 'dist', 'course', 'lessons', lessons[0]!, 'index.html'), 'utf8');
  assert.match(page, /class="gutter"/, "the course's code lost its line numbers");
  assert.match(page, /tests passed \d+\/\d+/);
  // No page script of Starlight's on the course's pages: the course's own and the copy button only.
  const scripts = [...page.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) =>
    m[1]!.replace(/\.[\w-]+\.js$/, '.js').replace(/\?v=.*$/, ''),
  );
  assert.deepEqual(scripts.sort(), ['/_astro/ec.js', '/course/_codelabgen/page.js'], "a script of Starlight's");
  assert.match(readFileSync(path.join(host, 'dist', 'index.html'), 'utf8'), /Host docs home/);
  assert.equal(
    readFileSync(path.join(course, '.codelabgen', 'events.jsonl'), 'utf8'),
    events,
    "the host's astro build wrote into the course",
  );
}
