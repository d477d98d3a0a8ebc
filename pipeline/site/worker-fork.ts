// The site worker process (pipeline/site/worker.ts): forked in a private folder, given one job over
// IPC, its messages relayed and its failure turned into the CLI's error.
import { fork } from 'node:child_process';
import module from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChecksFailedError, RelayedError } from '../course/errors.ts';
import { siteCacheRoot } from './cache-root.ts';
import { packageRoot } from './package-root.ts';
import type { SiteJob, WorkerMessage } from './site-job.ts';

export type Running = Promise<void> & { stop(): Promise<void> };

export interface Worker {
  /** Sends the job; settles when the worker exits. */
  run(job: SiteJob, onMessage: (message: WorkerMessage) => void): Running;
  /** Ends a worker that was never given a job (a refusal came first). */
  cancel(): void;
}

/**
 * Forks the worker in a private folder (Astro's prerender bundle goes to <cwd>/.astro/). It starts
 * loading Astro at once, while the CLI takes the lock and sends the job. The CLI forks it only after
 * its own checks (pipeline/site/build.ts refuseEarly): a refusal starts no Astro.
 */
export function forkWorker(mode: SiteJob['mode'], env: NodeJS.ProcessEnv): Worker {
  const work = mkdtempSync(path.join(siteCacheRoot(env, packageRoot()), 'run-'));
  const entry = import.meta.url.endsWith('.ts')
    ? fileURLToPath(new URL('./worker.ts', import.meta.url))
    : path.join(packageRoot(), 'dist', 'site-worker.mjs');
  // The worker loads Astro, Vite and the site's dependencies: with the CLI's compile cache (the
  // launcher's, bin/codelabgen.cjs) Node keeps their compiled code between runs, about 0.15 s a build.
  const compileCache = env.NODE_COMPILE_CACHE ?? module.getCompileCacheDir?.();
  // Astro opens no connection of its own: no telemetry, and no update check in dev (it ran the user's
  // package manager for its registry, then asked that registry for a newer Astro; cli/site-dev-quiet.test.ts).
  const child = fork(entry, [], {
    cwd: work,
    env: {
      ...env,
      ASTRO_TELEMETRY_DISABLED: '1',
      ASTRO_DISABLE_UPDATE_CHECK: 'true',
      ...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}),
    },
    stdio: mode === 'build' ? ['ignore', 'ignore', 'pipe', 'ipc'] : ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let failure: Error | null = null;
  let stderr = '';
  let onMessage: (message: WorkerMessage) => void = () => {};
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.on('message', (message: WorkerMessage) => {
    if (message.kind === 'failed') failure = new RelayedError(message.exitCode, message.error, message.hints);
    else onMessage(message);
  });
  // The job sent to a worker that already died (its exit says why, from its stderr).
  child.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      rmSync(work, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  return {
    cancel() {
      child.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true }); // the CLI may exit before the child's exit event
    },
    run(job, listener) {
      onMessage = listener;
      child.send(job);
      const running = exited.then(({ code, signal }) => {
        if (failure) throw failure;
        if (code === 0 || signal === 'SIGTERM') return;
        const last =
          stderr
            .trim()
            .split('\n')
            .filter((line) => line.trim() !== '')
            .at(-1) ?? `exit ${code ?? signal}`;
        throw new ChecksFailedError(`site ${job.mode} failed: ${last.trim()}`);
      }) as Running;
      running.stop = async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await running.catch(() => {});
      };
      return running;
    },
  };
}
