import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) used so far by every `postgres` process of
 * this machine: the server's backends, WAL writer and checkpointer. Measured
 * before and after a window, it says what the database cost — on a shared
 * server it includes other databases' work, so read it on a quiet machine.
 * Null where /proc is missing.
 */
export async function postgresCpuMs(): Promise<number | null> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of entries) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    // "pid (comm) state ppid …": comm may hold spaces, so split after its closing parenthesis.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    if (comm !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    // Fields 14 and 15 of the stat line (utime, stime) are the 12th and 13th after comm.
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

const machineCores = availableParallelism();

/** What a unit of work cost in CPU, and how many units the machine's cores could do at most. */
export interface CpuCost {
  /** ms of CPU of the stack process (all its threads) per unit. */
  stackMs: number;
  /** ms of CPU of Postgres per unit, when measurable. */
  postgresMs: number | null;
  /** Share of the machine's cores used during the window. */
  utilisation: number;
  /** Units per second if the cores did nothing else: cores × 1000 / (stack + Postgres ms). */
  ceilingPerSecond: number;
}

export function cpuCost(units: number, seconds: number, stackCpuMs: number, postgresCpuMsUsed: number | null): CpuCost {
  const perUnit = (ms: number) => (units > 0 ? ms / units : Number.NaN);
  const total = stackCpuMs + (postgresCpuMsUsed ?? 0);
  return {
    stackMs: perUnit(stackCpuMs),
    postgresMs: postgresCpuMsUsed === null ? null : perUnit(postgresCpuMsUsed),
    utilisation: total / (seconds * 1000 * machineCores),
    ceilingPerSecond: units > 0 && total > 0 ? (machineCores * 1000 * units) / total : Number.NaN,
  };
}
