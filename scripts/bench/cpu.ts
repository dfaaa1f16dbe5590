/**
 * Where the CPU goes during a measurement: CPU seconds of each process of the stack (from
 * /proc, Linux), and of the whole machine, which also shows how much went to other people's
 * work on a shared machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// USER_HZ: 100 on every Linux build that matters here.
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime, in seconds. */
  own: number;
  /** cutime + cstime: children that exited and were waited for. */
  children: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses; the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(fields[i]);
    return { ppid: n(1), own: (n(11) + n(12)) / TICKS_PER_SECOND, children: (n(13) + n(14)) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used so far (all its threads). */
export function cpuSecondsOf(pid: number): number {
  return procStat(pid)?.own ?? NaN;
}

function allPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/**
 * CPU seconds of a PostgreSQL server: the postmaster, the backends that ended (it waits for
 * them, so they count in its children's time) and the backends still running.
 */
export function postgresCpuSeconds(dataDir: string): number {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return NaN;
  }
  const main = procStat(postmaster);
  if (!main) return NaN;
  let total = main.own + main.children;
  for (const pid of allPids()) {
    const stat = procStat(pid);
    if (stat?.ppid === postmaster) total += stat.own;
  }
  return total;
}

/** The pid of the first process whose command line contains `fragment`. */
export function findPid(fragment: string): number | undefined {
  for (const pid of allPids()) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(fragment)) return pid;
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
export function machineBusySeconds(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number) as number[];
  void idle;
  void iowait;
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

export type CpuMeters = Record<string, () => number>;

/** Takes a reading now; `since()` answers the CPU seconds each meter used from then on. */
export function cpuReading(meters: CpuMeters): { since(): Record<string, number> } {
  const start = Object.fromEntries(Object.entries(meters).map(([name, read]) => [name, read()]));
  return {
    since: () =>
      Object.fromEntries(Object.entries(meters).map(([name, read]) => [name, read() - (start[name] ?? NaN)])),
  };
}

/** This process (the bench: receiver, load generator). */
export const benchCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
