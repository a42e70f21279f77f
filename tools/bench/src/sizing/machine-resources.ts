import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Descriptors a process holds now (its /proc/<pid>/fd entries). */
export function openDescriptors(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0; // the process has gone
  }
}

/** MemAvailable of proc(5) meminfo, in bytes: what the kernel could still hand out without swapping. */
export function memoryAvailable(): number {
  const line = readFileSync('/proc/meminfo', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('MemAvailable:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/**
 * Raises a running process's open-files limit (util-linux prlimit; raising the hard limit needs the privilege
 * to). The simulated fleet holds a socket per device, more than a shell's usual limit at 20,000 devices.
 */
export function raiseOpenFiles(pid: number, limit: number): boolean {
  try {
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${limit}:${limit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
