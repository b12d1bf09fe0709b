/** The small readers every activity and ledger sentence builds on: a detail as a count, a text, an object. */

/** A number as the log shows counts ("1,200"); anything else as it is, ? when absent. */
export const count = (value: unknown) => (typeof value === 'number' ? value.toLocaleString('en-US') : String(value ?? '?'));
/** A non-blank text, trimmed; null for anything else. */
export const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
/** An object of the details; an empty one for anything else. */
export const obj = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
