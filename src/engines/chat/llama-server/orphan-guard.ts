import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * Keeps a child process from outliving this one, on two paths:
 * - this process exits (a return from main, `process.exit`, an uncaught exception, a signal it
 *   handles): the 'exit' hook sends SIGKILL to every guarded child, synchronously;
 * - this process is killed outright (SIGKILL, the OOM killer), where no hook runs: a watcher, a
 *   `sh` of its own, reads a pipe from this process that nothing ever writes to. The kernel closes
 *   the pipe when this process dies, the read returns, and the watcher sends SIGKILL to the child:
 *   within milliseconds of the death, on any POSIX system (no prctl, which Node cannot reach and
 *   which llama-server does not set; nor does it watch its stdin).
 * The watcher holds the child's pid: if the child had already exited and its pid been reused in the
 * instant before this process died, the watcher would hit the new owner. The watcher is stopped as
 * soon as the child's exit is seen, which leaves that instant only.
 */

const WATCH = 'while read -r _; do :; done; kill -KILL "$1" 2>/dev/null';

const guarded = new Set<ChildProcess>();
let hooked = false;

function killGuarded(): void {
  for (const child of guarded) {
    // The process is exiting: nothing can be awaited, and a child left running would be an orphan.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Releases the guard (the child exited, or was stopped): the watcher goes too. */
export type GuardRelease = () => void;

export function guardChild(child: ChildProcess): GuardRelease {
  if (child.pid === undefined) return () => {};
  if (!hooked) {
    process.on('exit', killGuarded);
    hooked = true;
  }
  guarded.add(child);
  const watcher = spawn('/bin/sh', ['-c', WATCH, 'sh', String(child.pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  // Neither holds this process open: they exist only for its death.
  watcher.unref();
  (watcher.stdin as unknown as Socket | null)?.unref();
  watcher.on('error', () => {
    // No /bin/sh: the exit hook is the only guard left; nothing else to do.
  });
  return () => {
    guarded.delete(child);
    if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill('SIGKILL');
  };
}
