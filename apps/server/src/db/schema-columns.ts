import type { ColumnType } from 'kysely';

/** Read as ISO-8601 text in UTC, as `Date.prototype.toISOString()` writes it (`isoTimestamp` in connection.ts). */
export type Timestamp = ColumnType<string, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<string | null, Date | string | null | undefined, Date | string | null>;
