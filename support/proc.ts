import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
export const TICKS_PER_SECOND = 100;

/**
 * CPU time a process has used so far, user and system, in clock ticks, from /proc/<pid>/stat.
 * The fields are counted after the command's closing parenthesis, since the command may hold
 * spaces: utime and stime are then the 12th and 13th. Throws when the process is gone.
 */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}
