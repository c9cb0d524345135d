/**
 * What the benchmarks read from /proc (Linux): a process's CPU time, a core's busy time, and a field of a
 * process's status (peak RSS). CPU time per request holds on a busy machine where wall time does not.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function clockTicksPerSecond(): number {
  const n = Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim());
  return Number.isInteger(n) && n > 0 ? n : 100;
}

export const CLK_TCK = clockTicksPerSecond();

/** utime + stime of a process (all its threads), in µs, from /proc/<pid>/stat. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 2 (comm) may contain spaces; the fields after its closing parenthesis are plain.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the file are utime and stime; fields[0] here is field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
}

/**
 * CPU time of a process in µs at nanosecond resolution: the sum over its threads of the first field of
 * /proc/<pid>/task/<tid>/schedstat (time spent on a CPU, ns). /proc/<pid>/stat counts clock ticks (10 ms
 * at CLK_TCK 100), 1% of a one-second measured run; this does not. Undefined when the kernel has no
 * schedstat (CONFIG_SCHED_INFO); threads that ended are not counted, so callers compare its delta
 * with cpuMicros' and fall back to the latter when they disagree by more than a tick or two.
 */
export function preciseCpuMicros(pid: number): number | undefined {
  try {
    let nanos = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        nanos += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return Number.isFinite(nanos) && nanos > 0 ? nanos / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Busy and total time of one core since boot, in µs, from /proc/stat. */
export function coreMicros(core: number): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`cpu${core} `));
  if (line === undefined) return { busy: 0, total: 0 };
  // user nice system idle iowait irq softirq steal (guest time is already counted in user)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
  const total = busy + (idle ?? 0) + (iowait ?? 0);
  return { busy: (busy * 1e6) / CLK_TCK, total: (total * 1e6) / CLK_TCK };
}

/** A field of /proc/<pid>/status in kB (VmHWM: peak resident set size). */
export function statusKb(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN);
}
