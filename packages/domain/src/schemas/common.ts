import { z } from 'zod';
import { PAGING } from '../constants.ts';
import { MESSAGES } from '../messages.ts';

/** The one error shape of every API failure: a code a program reads, a message a person reads. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** Per-field messages of a validation failure, keyed by the field's path. */
    fields: z.record(z.string(), z.string()).optional(),
    request_id: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const ERROR_CODES = {
  badRequest: 'bad_request',
  validation: 'validation_failed',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  rule: 'rule_violated',
  rateLimited: 'rate_limited',
  unavailable: 'unavailable',
  internal: 'internal_error',
  /** The action needs a fresh second factor (or password): prove it with `POST /auth/step-up` and retry. */
  stepUpRequired: 'step_up_required',
} as const;

/** NUL and lone UTF-16 surrogates: PostgreSQL refuses them in text and JSON, so a query carrying one would fail. */
const UNSTORABLE = /[\0\p{Cs}]/u;
export const UNSTORABLE_TEXT = 'Contains characters that are not allowed.';
/** For every free-text field that reaches the database (stored, searched or compared). */
export const isStorableText = (value: string) => !UNSTORABLE.test(value);

/**
 * Control characters: C0 (NUL, tab, CR, LF and the rest), DEL, C1, and the Unicode line and
 * paragraph separators. A name is one line of visible text, shown in lists, headers, mail
 * subjects and CSV files; a line break or control in one could forge a line there.
 */
const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
export const CONTROL_TEXT = 'Must be one line without control characters.';
/** For names (organizations, people, invitations): refuses every control character, tab included. */
export const isSingleLineText = (value: string) => {
  for (let i = 0; i < value.length; i++) if (isControl(value.charCodeAt(i))) return false;
  return true;
};

export const uuidSchema = z.uuid();
export const isoDateSchema = z.string();
export const okSchema = z.object({ ok: z.literal(true) });

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unreachable']),
  /** The console's release (semver). */
  version: z.string(),
  /** The number of the last migration the database has applied; null while it cannot be read. */
  schema_version: z.number().int().nullable(),
});
export type Health = z.infer<typeof healthSchema>;

/** A yes or no in the query string, as the words `true` and `false` (any other text is refused). */
export const booleanTextSchema = z.enum(['true', 'false']).transform((value) => value === 'true');

/** A list's page number in the query string: a whole number from 1 up, refused in words otherwise. */
export const pageNumberSchema = z.coerce
  .number({ error: MESSAGES.generic.invalidPage })
  .int(MESSAGES.generic.invalidPage)
  .min(1, MESSAGES.generic.invalidPage)
  .max(1_000_000, MESSAGES.generic.invalidPage)
  .default(PAGING.defaultPage);
