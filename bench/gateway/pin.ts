/**
 * Pins every thread of a process (and the threads it starts later, which inherit the mask) to one
 * CPU with util-linux `taskset`. Returns false where that is not possible (no taskset, one CPU,
 * not Linux), so a benchmark can say it ran unpinned.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export function pinToCpu(pid: number, cpu: number): boolean {
  if (process.platform !== 'linux' || availableParallelism() <= cpu) return false;
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
