import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API, type Endpoint } from '@console/domain';
import { UnsupportedSchema, compileSerializer, jsonSchemaOf, responseSerializerCompiler } from './serializer.ts';

type JsonSchema = Record<string, unknown>;

/** Every answer of the contract with a JSON body: endpoint, status and zod schema. */
const ANSWERS = Object.entries(API).flatMap(([domain, endpoints]) =>
  Object.entries(endpoints as Record<string, Endpoint>).flatMap(([name, endpoint]) =>
    Object.entries(endpoint.responses)
      .filter((entry): entry is [string, z.ZodType] => entry[1] !== null)
      .map(([status, schema]) => ({ id: `${domain}.${name} ${endpoint.method} ${endpoint.path} ${status}`, schema })),
  ),
);

/**
 * Answers left to the zod serializer on purpose: a sign-in answers a session or a second-factor
 * challenge, two shapes with no common discriminator (a session has none to give), and it is
 * rare enough that zod's speed is no cost.
 */
const EXPECTED_FALLBACKS: string[] = ['auth.signIn POST /auth/sign-in 200'];

/** Strings that test the escaping: quotes, backslashes, controls, line separators, astral and lone surrogates. */
const awkwardString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('', '"', '\\', '\n\t\r', '\u0000\u001f', '\u2028\u2029', '😀', '\ud800', 'é\u0301', '</script>'),
);

const SAFE = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** Values of a JSON Schema (with its validation keywords), some with properties it does not name. */
function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options) return fc.oneof(...options.map(arbitraryOf));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => arbitraryOf({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = Math.max(SAFE.min, (schema.minimum as number | undefined) ?? SAFE.min);
      const max = Math.min(SAFE.max, (schema.maximum as number | undefined) ?? SAFE.max);
      return fc.oneof(fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }), fc.constantFrom(min, max));
    }
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: schema.minimum as number | undefined,
        max: schema.maximum as number | undefined,
      });
    case 'string':
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      if (schema.format === 'email') return fc.emailAddress();
      return awkwardString;
    case 'array':
      return fc.array(arbitraryOf(schema.items as JsonSchema), { maxLength: 3 });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const known = fc.record(Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, arbitraryOf(child)])), {
        requiredKeys: (schema.required ?? []) as string[],
      });
      const additional = schema.additionalProperties;
      const extra = fc.dictionary(
        fc.string({ maxLength: 6 }).filter((key) => !(key in properties) && key !== '__proto__'),
        additional && typeof additional === 'object' ? arbitraryOf(additional as JsonSchema) : fc.jsonValue(),
        { maxKeys: 2 },
      );
      return fc.tuple(known, extra).map(([own, more]) => ({ ...more, ...own }));
    }
    default:
      // Anything (z.unknown()): JSON values.
      return fc.jsonValue();
  }
}

/** The zod serializer's answer, as a client reads it. */
const zodJson = (schema: z.ZodType, value: unknown) => JSON.parse(JSON.stringify(z.encode(schema, value)));

describe('compiled serializers', () => {
  it('cover every endpoint of the contract', () => {
    const endpoints = Object.values(API).flatMap((group) => Object.values(group as Record<string, Endpoint>));
    const withBody = endpoints.filter((endpoint) => Object.values(endpoint.responses).some((schema) => schema !== null));
    expect(withBody.length).toBeGreaterThan(40);
    expect(new Set(ANSWERS.map((answer) => answer.id.split(' ')[0])).size).toBe(withBody.length);
  });

  it('compile for every answer but the expected fallbacks', () => {
    const fallbacks = ANSWERS.filter(({ schema }) => {
      try {
        compileSerializer(schema);
        return false;
      } catch (error) {
        if (error instanceof UnsupportedSchema) return true;
        throw error;
      }
    }).map((answer) => answer.id);
    expect(fallbacks).toEqual(EXPECTED_FALLBACKS);
  });

  // One property per answer: the compiled serializer writes what zod's did, and the client reads the same value.
  for (const { id, schema } of ANSWERS.filter((answer) => !EXPECTED_FALLBACKS.includes(answer.id))) {
    it(`agree with zod: ${id}`, () => {
      const serialize = compileSerializer(schema);
      let checked = 0;
      fc.assert(
        // Values outside the contract are skipped (and counted: too many fails the property rather than looping).
        fc.property(arbitraryOf(jsonSchemaOf(schema)), (value) => {
          fc.pre(z.safeEncode(schema, value).success);
          const json = JSON.parse(serialize(value));
          expect(json).toEqual(zodJson(schema, value));
          expect(schema.parse(json)).toEqual(schema.parse(zodJson(schema, value)));
          checked++;
        }),
        { numRuns: 40 },
      );
      expect(checked).toBe(40);
    });
  }
});

describe('the fallback to zod', () => {
  it('takes schemas the compiled serializer cannot reproduce', () => {
    const unsupported = [
      z.object({ n: z.string().transform((s) => s.length) }),
      z.object({ name: z.string().trim() }),
      z.object({ at: z.date() }),
      z.object({ either: z.union([z.string(), z.number()]) }),
      z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
    ];
    for (const [i, schema] of unsupported.entries()) expect(() => compileSerializer(schema), `schema ${i}`).toThrow(UnsupportedSchema);
  });

  it('serializes with zod where it falls back, and says so once per route', () => {
    const fallbacks: string[] = [];
    const compiler = responseSerializerCompiler({ onFallback: (route, reason) => fallbacks.push(`${route}: ${reason}`) });
    const schema = z.object({ at: z.string().trim() });
    const serialize = compiler({ schema, method: 'GET', url: '/x', httpStatus: '200' });
    expect(serialize({ at: ' a ', other: 1 })).toBe('{"at":"a"}');
    expect(fallbacks).toEqual(['GET /x 200: a value-rewriting check at .at']);
  });

  it('checks each answer against zod when asked, refusing one outside its contract', () => {
    const schema = z.object({ count: z.number().int(), name: z.string().nullable() });
    const serialize = responseSerializerCompiler({ check: true })({ schema, method: 'GET', url: '/x', httpStatus: '200' });
    expect(serialize({ count: 1, name: null, secret: 's' })).toBe('{"count":1,"name":null}');
    expect(() => serialize({ count: '1', name: null })).toThrow();
    // Without the check the compiled serializer writes what it is given, as fast-json-stringify coerces.
    expect(responseSerializerCompiler()({ schema, method: 'GET', url: '/x', httpStatus: '200' })({ count: '1', name: null })).toBe(
      '{"count":1,"name":null}',
    );
  });

  it('writes each shape of a discriminated union with its own properties only', () => {
    const schema = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), a: z.string() }),
      z.object({ kind: z.literal('b'), b: z.number() }),
    ]);
    const serialize = compileSerializer(schema);
    expect(serialize({ kind: 'a', a: 'x', b: 1 })).toBe('{"kind":"a","a":"x"}');
    expect(serialize({ kind: 'b', a: 'x', b: 1 })).toBe('{"kind":"b","b":1}');
    expect(() => serialize({ kind: 'c' })).toThrow();
  });

  it('keeps exact decimals as strings and nulls as null', () => {
    const schema = z.object({ amount: z.string().regex(/^-?\d+\.\d{2}$/), limit: z.number().int().nullable(), at: z.string().nullable() });
    expect(compileSerializer(schema)({ amount: '12345678901234.50', limit: null, at: null })).toBe(
      '{"amount":"12345678901234.50","limit":null,"at":null}',
    );
  });
});
