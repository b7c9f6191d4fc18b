// How busy the whole machine was over a measured window, from the kernel's per-CPU counters (/proc/stat).
//
// The benchmarks run the server and its load (HTTP load generator, socket clients) on the same cores, so a
// figure that misses its target means one of two things: the server leaves cores idle (a software limit),
// or every core was busy (the machine's limit, whatever the server does). Process CPU times cannot tell
// the two apart, because kernel work done for a socket (loopback delivery, wake-ups) is charged to whichever
// process happens to be running. The machine's counters can.
import { readFileSync } from 'node:fs';

/** The `cpu` line of /proc/stat: clock ticks spent per state since boot, summed over every core. */
interface CpuTicks {
  user: number;
  system: number;
  softirq: number;
  idle: number;
  total: number;
}

export interface MachineCpu {
  cores: number;
  /** Share of all cores' time over the window, in %. */
  busyPercent: number;
  userPercent: number;
  /** System calls and interrupts (hardware and soft: on loopback, most of TCP's work). */
  kernelPercent: number;
}

function readTicks(): { ticks: CpuTicks; cores: number } | null {
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return null; // not Linux
  }
  const lines = text.split('\n');
  const fields = lines[0]?.split(/\s+/).slice(1).map(Number) ?? [];
  if (fields.length < 7 || fields.some((value) => !Number.isFinite(value))) return null;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const cores = lines.filter((line) => /^cpu\d+ /.test(line)).length;
  return {
    cores,
    ticks: {
      user: user + nice,
      system: system + irq,
      softirq,
      idle: idle + iowait,
      total: user + nice + system + idle + iowait + irq + softirq + steal,
    },
  };
}

/** Starts a window; the returned function ends it and says how busy the machine was (null off Linux). */
export function machineCpuWindow(): () => MachineCpu | null {
  const start = readTicks();
  return () => {
    const end = readTicks();
    if (start === null || end === null) return null;
    const total = end.ticks.total - start.ticks.total;
    if (total <= 0) return null;
    const percent = (ticks: number) => Math.round((ticks / total) * 1000) / 10;
    return {
      cores: end.cores,
      busyPercent: percent(total - (end.ticks.idle - start.ticks.idle)),
      userPercent: percent(end.ticks.user - start.ticks.user),
      kernelPercent: percent(
        end.ticks.system - start.ticks.system + (end.ticks.softirq - start.ticks.softirq),
      ),
    };
  };
}

/** The figure as the benchmarks print it: "97.5 % of 2 cores (user 48.0, kernel 49.1)". */
export function describeMachineCpu(cpu: MachineCpu | null): string {
  if (cpu === null) return 'n/a (no /proc/stat)';
  return `${cpu.busyPercent} % of ${cpu.cores} cores (user ${cpu.userPercent}, kernel ${cpu.kernelPercent})`;
}
