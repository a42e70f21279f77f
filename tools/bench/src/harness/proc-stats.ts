import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// Linux /proc readers: what a process costs, seen from outside it (proc(5)).

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/** User and system CPU seconds a process has used so far (proc(5) stat fields 14 and 15). */
export function cpuTimes(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / clockTicks(), system: Number(fields[12]) / clockTicks() };
  } catch {
    return { user: 0, system: 0 }; // the process has gone
  }
}

export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** A memory field of /proc/<pid>/status in bytes: VmRSS now, VmHWM the peak so far. */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/**
 * Times the main thread went to sleep waiting and was woken again (proc(5) `voluntary_ctxt_switches`): how often
 * something wakes an idle event loop, a count the machine's other load does not inflate as it does CPU time.
 */
export function wakeUps(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('voluntary_ctxt_switches:'));
    return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0);
  } catch {
    return 0; // the process has gone
  }
}

/** The soft "Max open files" of a process. */
export function openFilesLimit(pid: number, which: 'soft' | 'hard' = 'soft'): number | undefined {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const value = line?.split(/\s{2,}/)[which === 'soft' ? 1 : 2];
  return value === undefined || value === 'unlimited' ? undefined : Number(value);
}

/** Pids whose command name (proc(5) `comm`) is `name`. */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** A Prometheus text exposition as name{labels} → value (labels kept verbatim). */
export async function scrapeMetrics(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(url, { signal: AbortSignal.timeout(10_000) })).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

/** The first sample of a metric whatever its labels. */
export function metric(values: Map<string, number>, name: string): number | undefined {
  for (const [key, value] of values) {
    if (key === name || key.startsWith(`${name}{`)) return value;
  }
  return undefined;
}

/** CPU seconds the whole machine has spent busy (/proc/stat's cpu line: every state but idle and iowait). */
export function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [, ...ticks] = line.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already in user and nice.
  const busy = ticks.slice(0, 8).reduce((sum, t, i) => (i === 3 || i === 4 ? sum : sum + (t ?? 0)), 0);
  return busy / clockTicks();
}
