// Test helper (imported only by cli/package.test.ts): runs a GitHub Actions workflow on this machine
// as a runner would. Jobs in `needs` order, a job's matrix instances at once (as GitHub runs them),
// every `run:` step in bash under GITHUB_ACTIONS=true with a job summary file of its own, each
// `uses:` action replaced by a local equivalent: checkout makes a depth-1 clone of the course
// repository, artifacts are folders, the Pages deploy checks its input. A failed step fails its job
// and skips the rest of it (but `if: always()` steps); a job runs when its `if:` holds, by default
// only when every job before it in its chain of needs succeeded (as GitHub decides). A second run of
// the workflow that changes only top-level `env:` values takes the first run's outcome of the jobs
// that read none of them (`sameJobsAs`), as their steps would do the same work again.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { run } from './package-fixture.ts';

export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
}
export interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown[]> };
  env?: Record<string, string>;
  steps: Step[];
}
export interface Workflow {
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  concurrency?: { 'cancel-in-progress'?: boolean };
  jobs: Record<string, Job>;
}

export interface WorkflowSetup {
  /** The course repository (a git repository) the checkout steps clone. */
  repo: string;
  /** Where the runners' workspaces and the artifacts go. */
  work: string;
  /** Values of `${{ github.* }}` expressions. */
  github: Record<string, string>;
  /** What browser-actions/setup-chrome reports as its chrome-path. */
  chromium: string;
  /** Values that replace the workflow's top-level `env:` ones (as an author edits them). */
  env?: Record<string, string>;
  /** Another run's install: every `npm ci` step links its node_modules instead of installing. */
  installed?: Promise<string>;
  /**
   * Another run of the same workflow on the same repository, whose `env` this run changes: a job
   * that names none of the changed variables, and needs only jobs like it, is not run again (its
   * steps would do the same work); its result, steps and artifacts are that run's. Sound as long as
   * no program the job starts reads those variables from its environment without the job naming
   * them (codelabgen reads none of the workflow's own).
   */
  sameJobsAs?: WorkflowRun;
}

export type JobResult = 'success' | 'failure' | 'skipped';

/** One step that ran, with what it printed. */
export interface StepRun {
  job: string;
  step: string;
  stdout: string;
  stderr: string;
  /** What the step appended to its $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** Set when the step failed: what failed, with the output. */
  failure?: string;
}

export interface WorkflowResult {
  /** Every step that ran, in the order it ran. */
  steps: StepRun[];
  /** Each job's result (a matrix job fails when one of its instances does). */
  jobs: Record<string, JobResult>;
}

/** What one job (all its matrix instances) did. */
export interface JobOutcome {
  result: JobResult;
  /** Its steps, in the order they ran. */
  steps: StepRun[];
  /** The names of the artifacts it uploaded. */
  artifacts: string[];
}

export interface WorkflowRun {
  /** The workspace whose node_modules the first `npm ci` step made (the next ones link to it). */
  installed: Promise<string>;
  /** Each job's outcome, once it is done or skipped (rejects only when the local run cannot go on). */
  jobs: Record<string, Promise<JobOutcome>>;
  /** When the last job is done or skipped; rejects only when the local run itself cannot go on. */
  done: Promise<WorkflowResult>;
  /** The artifacts folder: one folder per uploaded artifact, github-pages the deployed site. */
  artifacts: string;
}

/** Starts the workflow at once; its parts are awaited through the promises it returns. */
export function runWorkflow(workflow: Workflow, setup: WorkflowSetup): WorkflowRun {
  const install = deferred<string>();
  const artifacts = path.join(setup.work, 'artifacts');
  let installing = setup.installed !== undefined;
  if (setup.installed) setup.installed.then(install.resolve, install.reject);
  const steps: StepRun[] = [];
  const outcomes = Object.fromEntries(Object.keys(workflow.jobs).map((job) => [job, deferred<JobOutcome>()]));
  const context: RunnerContext = {
    ...setup,
    workflow,
    artifacts,
    steps,
    uploads: new Map(),
    npmCi: async (workspace, ci) => {
      // The same install in a later job: linked to the first one (as setup-node's npm cache makes it cheap).
      if (installing)
        return symlinkSync(path.join(await install.promise, 'node_modules'), path.join(workspace, 'node_modules'));
      installing = true;
      try {
        await ci();
      } catch (error) {
        install.reject(error);
        throw error;
      }
      install.resolve(workspace);
    },
  };
  const reused = reusedJobs(workflow, setup);
  const done = (async () => {
    const jobs: Record<string, JobResult> = {};
    for (const { job, matrices } of jobsInOrder(workflow)) {
      const from = steps.length;
      if (reused.has(job)) {
        const outcome = await setup.sameJobsAs!.jobs[job]!.catch((error: unknown) => {
          throw new Error(`the ${job} job this run shares with another run did not finish there: ${String(error)}`);
        });
        steps.push(...outcome.steps);
        for (const name of outcome.artifacts.filter((name) => existsSync(path.join(setup.sameJobsAs!.artifacts, name))))
          cpSync(path.join(setup.sameJobsAs!.artifacts, name), path.join(artifacts, name), { recursive: true });
        context.uploads.set(job, outcome.artifacts);
        jobs[job] = outcome.result;
      } else if (!jobRuns(workflow, job, jobs)) jobs[job] = 'skipped';
      else {
        const results = await Promise.all(matrices.map((matrix) => runJob(context, job, matrix, jobs)));
        jobs[job] = results.every((ok) => ok) ? 'success' : 'failure';
      }
      outcomes[job]!.resolve({
        result: jobs[job],
        steps: steps.slice(from),
        artifacts: context.uploads.get(job) ?? [],
      });
    }
    // A failed install leaves nothing to link: whoever waits for it hears why.
    install.reject(new Error(`no npm ci step succeeded: ${steps.find((step) => step.failure)?.failure ?? ''}`));
    return { steps, jobs };
  })();
  // Both are awaited (and their failure reported) by the tests; a failure before the install fails
  // whoever waits for it, and whoever waits for a job not done yet.
  done.catch((error: unknown) => {
    install.reject(error);
    for (const outcome of Object.values(outcomes)) outcome.reject(error);
  });
  install.promise.catch(() => {});
  for (const outcome of Object.values(outcomes)) outcome.promise.catch(() => {});
  const jobs = Object.fromEntries(Object.entries(outcomes).map(([job, outcome]) => [job, outcome.promise]));
  return { installed: install.promise, jobs, done, artifacts };
}

/** The jobs `setup.sameJobsAs` already ran as this run would: they name no variable of `setup.env`, nor do the jobs they need. */
function reusedJobs(workflow: Workflow, setup: WorkflowSetup): Set<string> {
  const reused = new Set<string>();
  if (setup.sameJobsAs === undefined) return reused;
  const changed = Object.keys(setup.env ?? {});
  for (const { job } of jobsInOrder(workflow)) {
    const text = JSON.stringify(workflow.jobs[job]);
    const needs = [workflow.jobs[job]!.needs ?? []].flat();
    if (!changed.some((name) => text.includes(name)) && needs.every((need) => reused.has(need))) reused.add(job);
  }
  return reused;
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

interface RunnerContext extends WorkflowSetup {
  workflow: Workflow;
  artifacts: string;
  steps: StepRun[];
  /** The artifacts each job uploaded, by job name. */
  uploads: Map<string, string[]>;
  /** Runs `ci` for the first `npm ci` step; a later one links the first one's node_modules. */
  npmCi: (workspace: string, ci: () => Promise<void>) => Promise<void>;
}

/** Jobs in an order that respects `needs`, each with its matrix expanded into its instances. */
function jobsInOrder(workflow: Workflow): Array<{ job: string; matrices: Array<Record<string, unknown>> }> {
  const done = new Set<string>();
  const order: Array<{ job: string; matrices: Array<Record<string, unknown>> }> = [];
  while (done.size < Object.keys(workflow.jobs).length) {
    const ready = Object.entries(workflow.jobs).filter(
      ([name, job]) => !done.has(name) && [job.needs ?? []].flat().every((need) => done.has(need)),
    );
    assert.ok(ready.length > 0, "the jobs' needs form a cycle");
    for (const [name, job] of ready) {
      let matrices: Array<Record<string, unknown>> = [{}];
      for (const [key, values] of Object.entries(job.strategy?.matrix ?? {}))
        matrices = matrices.flatMap((m) => values.map((value) => ({ ...m, [key]: value })));
      order.push({ job: name, matrices });
      done.add(name);
    }
  }
  return order;
}

/** The jobs `job` needs, and the jobs those need, and so on. */
function ancestors(workflow: Workflow, job: string): string[] {
  const needs = [workflow.jobs[job]!.needs ?? []].flat();
  return [...new Set(needs.flatMap((need) => [need, ...ancestors(workflow, need)]))];
}

/**
 * Whether a job runs, by its `if:`: without one, only when every job of its chain of needs
 * succeeded (GitHub's implicit success()). The expressions this runner knows: `always()`,
 * `!cancelled()` (nothing is cancelled here) and `needs.<job>.result == '<result>'`, joined by &&.
 */
function jobRuns(workflow: Workflow, job: string, results: Record<string, JobResult>): boolean {
  const condition = workflow.jobs[job]!.if;
  if (condition === undefined) return ancestors(workflow, job).every((other) => results[other] === 'success');
  const expression = condition.replace(/^\$\{\{\s*(.*?)\s*\}\}$/, '$1');
  return expression.split('&&').every((term) => {
    const text = term.trim();
    if (text === 'always()' || text === '!cancelled()') return true;
    const need = /^needs\.([\w-]+)\.result == '(\w+)'$/.exec(text);
    assert.ok(need, `${job}: the local run does not evaluate if: ${condition}`);
    return results[need[1]!] === need[2];
  });
}

/** Every file under `dir` (workspace-relative paths). */
function filesUnder(dir: string, root: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** Runs one instance of a job; false when a step of it failed. */
async function runJob(
  context: RunnerContext,
  jobName: string,
  matrix: Record<string, unknown>,
  results: Record<string, JobResult>,
): Promise<boolean> {
  const job = context.workflow.jobs[jobName]!;
  const label = `${jobName}${Object.keys(matrix).length ? ` ${JSON.stringify(matrix)}` : ''}`;
  const workspace = path.join(context.work, 'runners', `${jobName}-${Object.values(matrix).join('-') || '0'}`);
  const runnerTemp = path.join(workspace, '..', `${path.basename(workspace)}-temp`);
  mkdirSync(runnerTemp, { recursive: true });
  const env: Record<string, string> = {};
  const outputs: Record<string, string> = {};
  const expand = (text: string): string =>
    text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_all, expression: string) => {
      const [scope, ...rest] = expression.split('.');
      const value =
        scope === 'matrix'
          ? matrix[rest.join('.')]
          : scope === 'env'
            ? env[rest.join('.')]
            : scope === 'runner' && rest[0] === 'temp'
              ? runnerTemp
              : scope === 'steps' && rest[1] === 'outputs'
                ? outputs[`${rest[0]}.${rest[2]}`]
                : scope === 'needs' && rest[1] === 'result'
                  ? results[rest[0]!]
                  : context.github[expression];
      assert.ok(value !== undefined, `${label}: the local run does not know \${{ ${expression} }}`);
      return String(value);
    });
  for (const [key, value] of Object.entries({ ...context.workflow.env, ...context.env, ...job.env }))
    env[key] = expand(String(value));

  let failed = false;
  for (const [index, step] of job.steps.entries()) {
    assert.ok(
      step.if === undefined || step.if === 'always()',
      `${label}: the local run does not evaluate if: ${step.if}`,
    );
    if (failed && step.if !== 'always()') continue;
    const inputs = Object.fromEntries(
      Object.entries(step.with ?? {}).map(([key, value]) => [key, expand(String(value))]),
    );
    const record: StepRun = {
      job: label,
      step: step.name ?? step.uses ?? step.run!,
      stdout: '',
      stderr: '',
      summary: '',
    };
    context.steps.push(record);
    try {
      await runStep(context, step, {
        job: jobName,
        label,
        workspace,
        runnerTemp,
        index,
        record,
        inputs,
        outputs,
        env,
        expand,
      });
    } catch (error) {
      if (!(error instanceof assert.AssertionError)) throw error;
      record.failure = error.message;
      failed = true;
    }
  }
  return !failed;
}

interface StepPlace {
  job: string;
  label: string;
  workspace: string;
  runnerTemp: string;
  index: number;
  record: StepRun;
  inputs: Record<string, string>;
  outputs: Record<string, string>;
  env: Record<string, string>;
  expand: (text: string) => string;
}

/** One step: an action's local equivalent, or its `run:` script in bash; a failure is an AssertionError. */
async function runStep(context: RunnerContext, step: Step, place: StepPlace): Promise<void> {
  const { label, workspace, runnerTemp, record, inputs, outputs, env, expand } = place;
  const action = step.uses?.replace(/@.*$/, '');
  if (action === 'actions/checkout') {
    // A depth-1 clone of the course repository, whatever fetch-depth asks: the steps must work on
    // the checkout's default too (the site build then leaves out last-updated dates and says so).
    const clone = await run('git', ['clone', '--quiet', '--depth', '1', `file://${context.repo}`, workspace]);
    assert.equal(clone.status, 0, clone.stderr);
  } else if (action === 'actions/configure-pages') {
    outputs[`${step.id}.base_path`] = '/my-course';
    outputs[`${step.id}.base_url`] = 'https://someone.github.io/my-course';
  } else if (action === 'astral-sh/setup-uv') return;
  else if (action === 'actions/setup-node') assert.equal(inputs['node-version'], '22');
  else if (action === 'actions/setup-python') return;
  else if (action === 'browser-actions/setup-chrome') outputs[`${step.id}.chrome-path`] = context.chromium;
  else if (action === 'actions/cache')
    assert.equal(
      inputs.path,
      '~/.cache/codelabgen/diagrams',
      `${label}: the cache keeps another folder than the diagram cache`,
    ); // an optimization: nothing to restore locally
  else if (action === 'actions/upload-artifact') {
    // upload-artifact (v4 and later) leaves out hidden files (any path segment starting with ".") unless told.
    const from = path.join(workspace, inputs.path!);
    const files = filesUnder(from, workspace).filter(
      (file) => inputs['include-hidden-files'] === 'true' || !file.split(path.sep).some((part) => part.startsWith('.')),
    );
    context.uploads.set(place.job, [...(context.uploads.get(place.job) ?? []), inputs.name!]);
    for (const file of files)
      cpSync(
        path.join(workspace, file),
        path.join(context.artifacts, inputs.name!, path.relative(from, path.join(workspace, file))),
      );
  } else if (action === 'actions/download-artifact') {
    const pattern = new RegExp(
      `^${(inputs.pattern ?? '*').replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`,
    );
    for (const name of existsSync(context.artifacts) ? readdirSync(context.artifacts) : [])
      if (pattern.test(name))
        cpSync(path.join(context.artifacts, name), path.join(workspace, inputs.path!, name), { recursive: true });
  } else if (action === 'actions/upload-pages-artifact') {
    const site = path.resolve(workspace, inputs.path!);
    assert.ok(existsSync(path.join(site, 'index.html')), `${label}: no site at ${inputs.path}`);
    cpSync(site, path.join(context.artifacts, 'github-pages'), { recursive: true });
    context.uploads.set(place.job, [...(context.uploads.get(place.job) ?? []), 'github-pages']);
  } else if (action === 'actions/deploy-pages') {
    assert.ok(existsSync(path.join(context.artifacts, 'github-pages', 'index.html')), `${label}: nothing to deploy`);
    outputs[`${step.id}.page_url`] = 'https://someone.github.io/my-course/';
  } else if (step.uses !== undefined) assert.fail(`${label}: no local equivalent for ${step.uses}`);
  else {
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([key, value]) => [key, expand(String(value))]),
    );
    const summary = path.join(runnerTemp, `step-summary-${place.index}.md`);
    const bash = () =>
      runBash(expand(step.run!), {
        label,
        record,
        workspace,
        runnerTemp,
        env: { ...env, ...stepEnv, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
      });
    if (/^npm ci\b/.test(step.run ?? '')) await context.npmCi(workspace, bash);
    else await bash();
  }
}

/** A `run:` step in bash as on a runner; a failure names the step and shows its output (and npm's log). */
async function runBash(
  script: string,
  step: { label: string; record: StepRun; workspace: string; runnerTemp: string; env: Record<string, string> },
): Promise<void> {
  const npmLogs = path.join(step.runnerTemp, 'npm-logs');
  const result = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd: step.workspace,
    timeout: 300_000,
    env: {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, // setup-node's Node first
      CODELABGEN_COURSE: undefined,
      NO_COLOR: '1',
      // Only from the npm cache the repository's own install filled: an install that needs the
      // network fails. npm's log goes where a failure can print it.
      npm_config_offline: 'true',
      npm_config_logs_dir: npmLogs,
      CI: 'true',
      GITHUB_WORKSPACE: step.workspace,
      RUNNER_TEMP: step.runnerTemp,
      ...step.env,
    },
  });
  step.record.stdout = result.stdout;
  step.record.stderr = result.stderr;
  const summary = step.env.GITHUB_STEP_SUMMARY;
  if (summary !== undefined && existsSync(summary)) step.record.summary = readFileSync(summary, 'utf8');
  if (result.status !== 0) {
    const logs = existsSync(npmLogs) ? readdirSync(npmLogs).sort() : [];
    const log =
      logs.length > 0
        ? `\nnpm's log (${logs.at(-1)}), last lines:\n${readFileSync(path.join(npmLogs, logs.at(-1)!), 'utf8')
            .split('\n')
            .slice(-80)
            .join('\n')}`
        : '';
    assert.fail(`${step.label}: "${step.record.step}" exited ${result.status}\n${result.stdout}${result.stderr}${log}`);
  }
}
