// The network of a sandbox whose lesson asked for one (`network: true`), never the host's: bwrap is
// started through `unshare --user --net` (a user and network namespace of its own, the caller's ids
// kept) with --share-net, and slirp4netns connects that namespace to the internet through user-mode
// NAT with --disable-host-loopback, so the host's loopback services stay out of reach. slirp4netns
// joins the namespaces of bwrap's own process (the sandbox's PID 1 moves on into nested ones), as
// soon as bwrap reports the sandbox; the command waits on --block-fd until the network is up.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** bwrap waits on this fd before it runs the command (`--block-fd`), until the network is up. */
export const NETWORK_BLOCK_FD = 4;
/** bwrap reads the sandbox's resolv.conf from this fd (`--ro-bind-data`). */
export const RESOLV_CONF_FD = 5;
/** slirp4netns's DNS forwarder, as the sandbox sees it. */
export const SANDBOX_RESOLV_CONF = 'nameserver 10.0.2.3\n';

/** The programs a networked sandbox needs. */
export interface NetworkPrograms {
  unshare: string;
  slirp: string;
}

/** What goes before bwrap: a user and network namespace of its own, the caller's uid and gid mapped to themselves. */
export function networkPrefix(programs: NetworkPrograms): string[] {
  const [uid, gid] = [process.getuid?.() ?? 0, process.getgid?.() ?? 0];
  return [programs.unshare, '--user', `--map-user=${uid}`, `--map-group=${gid}`, '--net', '--'];
}

export interface SandboxNetwork {
  /** Ends slirp4netns (the sandbox's network goes with it). */
  stop(): void;
}

/**
 * Starts slirp4netns for the namespaces of `bwrapPid` (the process that was unshare, exec'd into
 * bwrap; call it once bwrap has reported the sandbox, never before the unshare); calls `ready` once
 * its tap device is configured, or `failed` with why when it ends first.
 */
export function startSandboxNetwork(
  slirp: string,
  bwrapPid: number,
  ready: () => void,
  failed: (why: string) => void,
): SandboxNetwork {
  const child = spawn(
    slirp,
    ['--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', '--exit-fd=4', String(bwrapPid), 'tap0'],
    { env: {}, stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  const [stderr, readyPipe, exitPipe] = [child.stderr!, child.stdio[3] as Readable, child.stdio[4] as Writable];
  let said = '';
  let settled = false;
  stderr.setEncoding('utf8').on('data', (chunk: string) => {
    said = (said + chunk).slice(-2000);
  });
  readyPipe.once('data', () => {
    if (!settled) [settled] = [true, ready()];
  });
  const fail = (why: string) => {
    if (!settled) [settled] = [true, failed(why)];
  };
  child.on('error', (error) => fail(`${slirp}: ${error.message}`));
  child.on('exit', (code, signal) => {
    const last = said.trim().split('\n').join(' / ');
    fail(`slirp4netns ended (${signal ?? `exit ${code}`}) before the network was up${last ? `: ${last}` : ''}`);
  });
  exitPipe.on('error', () => {}); // slirp4netns already gone: nothing to end
  return {
    stop: () => {
      settled = true;
      exitPipe.end();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
