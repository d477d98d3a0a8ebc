// Waking a lock waiter when the lock is released: the waiter watches the lock's folder (inotify on
// Linux) and its sleep ends at the first event naming the lock or its break guard, so the next
// holder starts within a scheduler tick instead of at the end of a backoff sleep. The sleep's timer
// stays the fallback: a missed event, a filesystem without notifications (NFS) or a watcher that
// cannot be created (the inotify instance limit) only cost the old backoff. Measured in
// docs/performance.md ("MCP server").
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export class ReleaseWatch {
  private watcher: FSWatcher | null = null;
  /** Ends the running sleep. Events are delivered only while the waiter awaits, so none is missed between sleeps. */
  private wake: ((woken: boolean) => void) | null = null;

  constructor(lockFile: string) {
    const lock = path.basename(lockFile);
    try {
      this.watcher = watch(path.dirname(lockFile), { persistent: false }, (_type, name) => {
        if (name !== null && name !== lock && name !== `${lock}.break`) return;
        // A lock that exists was just taken (by the next holder, or still held): waking every waiter
        // for it costs each a failed try. Only a removal (or a break guard change) wakes them.
        if (name === lock && existsSync(lockFile)) return;
        this.wake?.(true);
      });
      this.watcher.on('error', () => this.close()); // the folder went away, or the watch broke: timers only
    } catch {
      this.watcher = null; // no watch on this system or folder: timers only
    }
  }

  /** Sleeps up to `ms`, less if the lock or its guard changes meanwhile; true when woken by a change. */
  sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.wake = null;
        resolve(woken);
      };
      const timer = setTimeout(() => done(false), ms);
      this.wake = done;
    });
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    this.wake?.(false);
  }
}
