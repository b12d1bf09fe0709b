import fc from 'fast-check';
import type { ZodType } from 'zod';

/**
 * Hostile values for the API fuzz suite, shaped by a route's own zod schemas: each field
 * gets values near its type (so validation is probed at its edges and, for reads, the
 * services see them) mixed with values of the wrong type.
 */

/** Text that has broken servers before: injection, markup, encodings, wildcards, lengths. */
export const HOSTILE_TEXT: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  '\u200F\u05E9\u05DC\u05D5\u05DD \u0645\u0631\u062D\u0628\u0627',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '\uFEFF',
  '\r\n\t\b\f\v',
  "' OR '1'='1",
  "'; drop table organizations; --",
  '" OR ""="',
  "1' union select id, email from users --",
  '%',
  '_',
  '\\',
  '%_%\\%',
  '<script>alert(1)</script>',
  '<img src=x onerror="window.__xss=1">',
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '__proto__',
  'constructor',
  'a'.repeat(101),
  'a'.repeat(257),
  'é'.repeat(5_000),
];

/** Strings that almost look like numbers and amounts. */
export const NUMBER_TEXT: readonly string[] = [
  '0',
  '-0',
  '-1',
  '1.005',
  '0.001',
  '0.00001',
  '1e-7',
  '1.00000000000000001',
  '1.00',
  '0.00',
  '-1.00',
  ' 1.50 ',
  '1,50',
  '1e3',
  '0x10',
  '1_000',
  '١٢٣',
  'NaN',
  '-NaN',
  'Infinity',
  '9007199254740993',
  '999999999999.99',
  '1000000000000.00',
  '12345678901234567890',
  '9999999999999999999',
  '1'.repeat(400),
];

export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1.5,
  0.001,
  1.005,
  0.0001,
  0.00001,
  1.23456,
  1e-7,
  0.1 + 0.2,
  2 ** 31,
  -(2 ** 31),
  Number.MAX_SAFE_INTEGER + 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1_000_001,
  1e21,
];

/** Strings far beyond every field limit: within the 256 KiB body limit and beyond it. */
export const HUGE_TEXT: readonly string[] = ['a'.repeat(100_000), 'x'.repeat(250_000), '😀'.repeat(70_000), '\u0000'.repeat(50_000)];

const huge = fc.constantFrom(...HUGE_TEXT);

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.tuple(fc.string(), fc.constantFrom(...HOSTILE_TEXT), fc.string()).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_TEXT) },
  { weight: 1, arbitrary: fc.emailAddress().chain((email) => fc.constantFrom(email, `<b>${email}`, `${email}\u0000`, `${email}' --`)) },
  { weight: 1, arbitrary: huge },
);

/** Web addresses a link field accepts that still carry markup, SQL or odd characters. */
const HOSTILE_URLS = [
  'https://example.test/<script>window.__xss=3</script>',
  "https://example.test/?q=' or 1=1 --",
  'https://example.test/\u202Eevil',
  'http://xn--e1afmkfd.example/😀',
];

/** Text within the usual length limits that still carries NUL, lone surrogates, markup or SQL. */
export const plausibleText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'a\u0000b',
      'Acme\u0000 Ltd',
      'ab\uD800',
      'Acme \uD83D Ltd',
      '\uDC00cd',
      "O'Brien'); drop table users; --",
      'Robert" OR 1=1 --',
      '<img src=x onerror="window.__xss=1">',
      '<script>window.__xss=2</script>',
      '\u202Eevil\u202C name',
      '\u05E9\u05DC\u05D5\u05DD \u0645\u0631\u062D\u0628\u0627',
      '😀 👩‍👩‍👧‍👦',
      'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
      '%_\\%',
      '{{7*7}} ${7*7}',
      'line\nbreak\ttab',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 3, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 3, maxLength: 30 }) },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON of the wrong shape: what a field typed otherwise must refuse. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileText,
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(hostileText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);

interface ZodDef {
  type: string;
  innerType?: ZodType;
  in?: ZodType;
  out?: ZodType;
  shape?: Record<string, ZodType>;
  options?: ZodType[];
  entries?: Record<string, string>;
  element?: ZodType;
  valueType?: ZodType;
  format?: string;
  checks?: ZodType[];
  pattern?: RegExp;
  values?: unknown[];
}

const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The object shape of a route schema part (body, querystring, params, headers), if it is one. */
export function shapeOf(schema: unknown): Record<string, ZodType> | null {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return null;
  const def = defOf(schema as ZodType);
  if (def.type === 'object') return def.shape ?? null;
  const inner = def.innerType ?? def.in;
  return inner ? shapeOf(inner) : null;
}

/**
 * `hostile`: values at and past the edges of the field's type, or of another type.
 * `plausible`: values the field's schema may well accept (so the service runs), with
 * hostile text wherever free text is allowed.
 */
export type Mode = 'hostile' | 'plausible';

/** Values for one field: mostly near its own type, sometimes (hostile mode) of the wrong type. */
export function valueFor(schema: ZodType, uuids: readonly string[], mode: Mode = 'hostile'): fc.Arbitrary<unknown> {
  const typed = typedValue(schema, uuids, mode);
  return mode === 'plausible' ? typed : fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: wrongType });
}

function typedValue(schema: ZodType, uuids: readonly string[], mode: Mode): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const plausible = mode === 'plausible';
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'catch':
    case 'readonly':
      return typedValue(def.innerType!, uuids, mode);
    case 'pipe':
      // An e-mail is a trimmed string piped into z.email(): generate for the e-mail end.
      return typedValue(defOf(def.out!).format === 'email' ? def.out! : def.in!, uuids, mode);
    case 'string':
      if (def.format === 'date' || def.format === 'datetime') return dateLike;
      if (def.format === 'uuid') return plausible ? fc.oneof(fc.constantFrom(...uuids), fc.uuid()) : uuidLike(uuids);
      if (def.format === 'email') return plausible ? fc.emailAddress() : fc.oneof(fc.emailAddress(), hostileText);
      // A string of a pattern (six digits of a code): plausible ones match it, or a required one is never found.
      if (plausible) {
        const pattern = def.checks?.map(defOf).find((check) => check.format === 'regex')?.pattern;
        if (pattern) return fc.stringMatching(pattern);
      }
      // Links (the global settings) are checked by a refinement, not a format: some plausible
      // strings are web addresses, hostile ones among them, or a required link is never found.
      return plausible
        ? fc.oneof(
            { weight: 4, arbitrary: plausibleText },
            { weight: 1, arbitrary: fc.constantFrom('12.50', '2024-01-01') },
            { weight: 1, arbitrary: fc.oneof(fc.webUrl(), fc.constantFrom(...HOSTILE_URLS)) },
          )
        : hostileText;
    case 'number':
      return plausible ? fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(0.01, 12.5, 1_000_000)) : hostileNumber;
    case 'boolean':
      return fc.boolean();
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      if (plausible) return fc.constantFrom(...values);
      return fc.oneof(
        fc.constantFrom(...values),
        fc.constantFrom(...values.map((v) => v.toUpperCase()), ...values.map((v) => ` ${v}`), ...values.map((v) => `${v}\u0000`)),
      );
    }
    case 'literal': {
      // A fixed value (`type: 'public-key'`): plausible ones are it, or a required one is never found.
      const values = def.values ?? [];
      if (plausible || values.length === 0) return values.length ? fc.constantFrom(...values) : wrongType;
      return fc.oneof(fc.constantFrom(...values), wrongType);
    }
    case 'union':
      return fc.oneof(...def.options!.map((option) => typedValue(option, uuids, mode)));
    case 'array':
      return fc.oneof(
        fc.array(valueFor(def.element!, uuids, mode), { minLength: plausible ? 1 : 0, maxLength: 3 }),
        ...(plausible ? [] : [fc.constant(Array.from({ length: 1_001 }, () => ({})))]),
      );
    case 'record':
      return fc.dictionary(plausible ? plausibleText : hostileText, valueFor(def.valueType!, uuids, mode), { maxKeys: 3 });
    case 'object':
      return objectFor(schema, uuids, mode);
    default:
      return wrongType;
  }
}

/** Dates at the ends of what JavaScript and PostgreSQL can represent. */
const dateLike: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0000-01-01',
    '0001-01-01',
    '9999-12-31',
    '2024-02-29',
    '2023-02-29',
    '0001-01-01T00:00:00+01:00',
    '9999-12-31T23:00:00-02:00',
  ),
  fc.date({ noInvalidDate: true }).chain((d) => fc.constantFrom(d.toISOString(), d.toISOString().slice(0, 10))),
  // Offsets at every edge: ISO 8601 allows ±23:59, PostgreSQL reads only ±15:59; +24:00 is no offset at all.
  fc
    .tuple(
      fc.date({ min: new Date('1000-01-02T00:00:00Z'), max: new Date('9998-12-30T00:00:00Z'), noInvalidDate: true }),
      fc.constantFrom('Z', '+00:00', '-00:00', '+14:00', '-12:00', '+15:59', '-15:59', '+16:00', '-16:00', '+23:59', '-23:59', '+24:00'),
      fc.constantFrom('', '.5', '.123456', '.1234567891'),
    )
    .map(([d, offset, fraction]) => `${d.toISOString().slice(0, 19)}${fraction}${offset}`),
);

/** Uuids that exist (so scope and state checks run), random ones, and near misses. */
export function uuidLike(uuids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...uuids),
    fc.uuid(),
    fc.constantFrom(...uuids).map((id) => id.toUpperCase()),
    fc.constantFrom(...uuids).map((id) => `${id}' or '1'='1`),
    fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '1', '-1', 'null'),
    hostileText,
  );
}

/**
 * An object of the schema's keys with hostile values: any key may be left out, and unknown
 * keys come along. In plausible mode the required keys are always there and nothing else.
 */
export function objectFor(schema: ZodType, uuids: readonly string[], mode: Mode = 'hostile'): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(schema) ?? {};
  if (mode === 'plausible') {
    // Each field passes its own schema (an optional one the schema refuses is left out),
    // so the request reaches the service unless the fields together break a rule.
    const accepts = (field: ZodType) => (value: unknown) => field.safeParse(value).success;
    const required = Object.keys(shape).filter((key) => !accepts(shape[key]!)(undefined));
    const plausibleField = (key: string, field: ZodType) => {
      const value = valueFor(field, uuids, mode);
      return required.includes(key) ? value.filter(accepts(field)) : value.map((v) => (accepts(field)(v) ? v : undefined));
    };
    return fc.record(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, plausibleField(key, field)])), {
      requiredKeys: required,
    });
  }
  const fields = fc.record(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, valueFor(field, uuids, mode)])), {
    requiredKeys: [],
  });
  const extra = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'id', 'role', 'organization_id', 'x'), wrongType, { maxKeys: 2 });
  return fc.tuple(fields, fc.option(extra, { freq: 4 })).map(([known, more]) => ({ ...more, ...known }));
}

/** JSON a parser must refuse, or that is legal but extreme (depth, size, numbers). */
export const RAW_BODIES: readonly string[] = [
  '{',
  '{"a":',
  '[1,2',
  '{"a":1}}',
  "{'a':1}",
  '{"a":1,}',
  'undefined',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '\u0000',
  '"\uD800"',
  '[]',
  '""',
  'null',
  '123',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"amount":1e400,"activated_agent_limit":1e400,"page":1e400}',
  '{"amount":123456789012345678901234567890,"activated_agent_limit":-1e-400}',
  // Numbers a float cannot hold as written: read as 1, 0.1 and 10, they must not pass as those.
  '{"units":1.00000000000000001,"price":0.10000000000000001,"amount":10.000000000000001,"health_score":50.0000000000000001}',
  '{"events":[{"id":"e","organization_id":"00000000-0000-4000-8000-000000000000","agent":"x","units":1.00000000000000001,"occurred_at":"2026-01-01T00:00:00Z"}]}',
  '\uFEFF{"units":0.00001,"price":1e-7,"amount":1.23456}',
  '['.repeat(10_000) + ']'.repeat(10_000),
  '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
  '{"name":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}',
  '{"a":"' + 'x'.repeat(300_000) + '"}',
  ' '.repeat(300_000),
];

export const CONTENT_TYPES: readonly string[] = [
  'application/json',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'json',
];

/** Header values: fetch sends only Latin-1 without control characters (a tab aside). */
export const hostileHeaderText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    "'; drop table idempotency_keys; --",
    '<script>',
    'é\u00ff',
    'x'.repeat(201),
    'x'.repeat(10_000),
    'x'.repeat(100_000),
  ),
  fc
    .string({ unit: 'binary-ascii', maxLength: 60 })
    .map((s) => [...s].filter((ch) => ch === '\t' || (ch >= ' ' && ch !== '\u007f')).join('')),
  fc.uuid(),
);

/** Authorization headers that must never authenticate. */
export function oddAuthorizations(realToken: string): readonly string[] {
  const [header, payload, signature] = realToken.split('.') as [string, string, string];
  const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  return [
    'Bearer',
    'Bearer ',
    'Bearer x',
    'Bearer null',
    'Bearer undefined',
    'Basic YWRtaW46YWRtaW4=',
    `Token ${realToken}`,
    `Bearer ${realToken}x`,
    `Bearer ${header}.${payload}.`,
    `Bearer ${none}.${payload}.`,
    `Bearer ${header}.${payload}.${signature.split('').reverse().join('')}`,
    `Bearer ${header}.e30.${signature}`,
    'Bearer eyJhbGciOiJIUzI1NiJ9.' + 'a'.repeat(10_000) + '.x',
    "Bearer ' or 1=1 --",
  ];
}
