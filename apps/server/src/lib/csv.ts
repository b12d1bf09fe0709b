/**
 * CSV for spreadsheets: cells that cannot run as formulas, and a bound on how many exports
 * run at once.
 */

/** How a cell, or a part of it, that a spreadsheet would run as a formula starts. */
const FORMULA_START = /^(\s*[=+\-@]|[\t\r])/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV cell. A spreadsheet runs a cell starting with `=`, `+`, `-`, `@`, tab or CR as a
 * formula; one set to split on `;` makes every `;`-separated part of a cell a cell of its
 * own, even inside quotes. So each `;`-separated part that starts like a formula (after any
 * spaces) gets a leading apostrophe and is read as text; plain numbers such as -12.50 stay
 * numbers. A cell holding a comma, `;`, a quote, CR or LF is quoted.
 */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  const guarded = text
    .split(';')
    .map((part) => (FORMULA_START.test(part) && !PLAIN_NUMBER.test(part) ? `'${part}` : part))
    .join(';');
  return /[",;\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** One CSV line, CRLF-terminated. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export interface ExportLimits {
  perUser: number;
  perProcess: number;
  /** What a refused export is told to wait (Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Exports stream thousands of rows each; twenty at once by one person slowed every other
 * request to seconds. Two run at once per person and four per server process; beyond
 * that the answer is 429 with Retry-After.
 */
export const EXPORT_LIMITS: ExportLimits = { perUser: 2, perProcess: 4, retryAfterSeconds: 5 };

/** Counts the exports under way; `take` gives a release function, or null when a limit is reached. */
export function exportSlots(limits: ExportLimits = EXPORT_LIMITS) {
  const byUser = new Map<string, number>();
  let total = 0;
  return {
    take(userId: string): (() => void) | null {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= limits.perUser || total >= limits.perProcess) return null;
      byUser.set(userId, mine + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (byUser.get(userId) ?? 1) - 1;
        if (left > 0) byUser.set(userId, left);
        else byUser.delete(userId);
      };
    },
    get running() {
      return total;
    },
  };
}
