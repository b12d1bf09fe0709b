import { isDeepStrictEqual } from 'node:util';
import build from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Answers are serialized by fast-json-stringify from each response schema's JSON Schema,
 * compiled once per schema at start-up: the properties the contract names, in its order,
 * without a zod check or a generic JSON.stringify per answer. A schema whose JSON form could
 * not be serialized faithfully keeps the zod serializer (encode, then JSON.stringify).
 */

type Serialize = (data: unknown) => string;
type JsonSchema = Record<string, unknown>;

/** A schema the compiled serializer cannot reproduce exactly; the reason names the part. */
export class UnsupportedSchema extends Error {}

/**
 * Zod types whose encoded value is the value itself, so JSON Schema describes its JSON fully.
 * A default is kept: encoding never fills it in (a missing value is refused either way).
 */
const PLAIN_TYPES = new Set([
  'object',
  'string',
  'number',
  'boolean',
  'null',
  'literal',
  'enum',
  'array',
  'optional',
  'nullable',
  'union',
  'record',
  'unknown',
  'any',
  'readonly',
  'default',
]);

/**
 * Keywords that only validate, or document: serializing ignores them, and with none of them
 * left fast-json-stringify never needs a validator. `default` goes too, so a missing value is
 * refused as zod refuses it rather than filled in.
 */
const DROPPED_KEYWORDS = new Set([
  '$schema',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'contentEncoding',
  'contentMediaType',
  'description',
  'title',
  'examples',
  'default',
  'id',
]);

/** What the serializer cannot write without a validator choosing a branch at run time. */
const UNSUPPORTED_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'patternProperties', 'prefixItems', 'dependentSchemas'];

interface ZodInternals {
  _zod: { def: { type: string; checks?: { _zod: { def: { check: string } } }[] } & Record<string, unknown> };
}

/** Refuses a zod schema whose encoded JSON differs from the value it is given (transforms, codecs, dates, lazies). */
function assertPlain(schema: ZodInternals, path: string, seen: Set<unknown>): void {
  if (seen.has(schema)) throw new UnsupportedSchema(`recursive schema at ${path || 'the root'}`);
  seen.add(schema);
  const def = schema._zod.def;
  if (!PLAIN_TYPES.has(def.type)) throw new UnsupportedSchema(`zod type "${def.type}" at ${path || 'the root'}`);
  // trim(), toLowerCase() and the like rewrite the value as zod encodes it.
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite'))
    throw new UnsupportedSchema(`a value-rewriting check at ${path || 'the root'}`);
  const inner = (child: unknown, at: string) => assertPlain(child as ZodInternals, at, seen);
  switch (def.type) {
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) inner(child, `${path}.${key}`);
      // A strict object's catchall is never: other keys are refused, not written.
      if (def.catchall && (def.catchall as ZodInternals)._zod.def.type !== 'never') inner(def.catchall, `${path}.*`);
      break;
    case 'array':
      inner(def.element, `${path}[]`);
      break;
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'default':
      inner(def.innerType, path);
      break;
    case 'union':
      for (const [i, option] of (def.options as unknown[]).entries()) inner(option, `${path}|${i}`);
      break;
    case 'record':
      inner(def.keyType, `${path}{key}`);
      inner(def.valueType, `${path}{}`);
      break;
  }
  seen.delete(schema);
}

/**
 * The JSON Schema fast-json-stringify gets: validation keywords dropped, and a nullable value
 * (`anyOf: [X, { type: 'null' }]` or `type: [X, 'null']`) written as X with `nullable: true`, which the serializer
 * handles without a validator. Any other union is refused here.
 */
function forSerializer(node: unknown, path: string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => forSerializer(item, `${path}[${i}]`));
  if (node === null || typeof node !== 'object') return node;
  let schema = node as JsonSchema;
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf?.length === 2) {
    const nulls = anyOf.filter((option) => option.type === 'null' && Object.keys(option).length === 1);
    const value = anyOf.find((option) => !nulls.includes(option));
    if (nulls.length === 1 && value && value.nullable === undefined && typeof value.type === 'string') {
      const { anyOf: _, ...rest } = schema;
      schema = { ...rest, ...value, nullable: true };
    }
  }
  // The same, as zod writes it for a simple type: `type: ['string', 'null']`.
  if (Array.isArray(schema.type) && schema.type.length === 2 && schema.type.includes('null') && schema.nullable === undefined) {
    schema = { ...schema, type: schema.type.find((type) => type !== 'null'), nullable: true };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(key)) continue;
    if (UNSUPPORTED_KEYWORDS.includes(key)) throw new UnsupportedSchema(`"${key}" at ${path || 'the root'}`);
    if (key === 'type' && Array.isArray(value)) throw new UnsupportedSchema(`several types at ${path || 'the root'}`);
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, child]) => [name, forSerializer(child, `${path}.${name}`)]),
      );
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = forSerializer(value, `${path}.${key}`);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The JSON Schema of a zod response schema, as the answer leaves the server. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  // A registry of its own: ids and descriptions of the global one would add $refs and text.
  return z.toJSONSchema(schema, {
    target: 'draft-07',
    io: 'output',
    unrepresentable: 'throw',
    cycles: 'throw',
    reused: 'inline',
    metadata: z.registry(),
  }) as JsonSchema;
}

function compileObject(schema: z.ZodType): Serialize {
  return build(forSerializer(jsonSchemaOf(schema), '') as Parameters<typeof build>[0]) as Serialize;
}

/**
 * A serializer compiled from a zod response schema, or UnsupportedSchema. A discriminated
 * union at the top (one answer with several shapes) is a serializer per shape, chosen by
 * the discriminator's value as zod chooses.
 */
export function compileSerializer(schema: z.ZodType): Serialize {
  assertPlain(schema as unknown as ZodInternals, '', new Set());
  const def = (schema as unknown as ZodInternals)._zod.def;
  if (def.type !== 'union') return compileObject(schema);
  const discriminator = def.discriminator as string | undefined;
  if (!discriminator) throw new UnsupportedSchema('a union without a discriminator at the root');
  const byValue = new Map<unknown, Serialize>();
  for (const option of def.options as z.ZodObject[]) {
    const values = (option.shape[discriminator] as unknown as { _zod: { values?: Set<unknown> } } | undefined)?._zod.values;
    if (!values) throw new UnsupportedSchema(`an option without a literal "${discriminator}"`);
    const serialize = compileObject(option);
    for (const value of values) byValue.set(value, serialize);
  }
  return (data) => {
    const serialize = byValue.get((data as Record<string, unknown> | null)?.[discriminator]);
    if (!serialize) throw new Error(`The answer's "${discriminator}" is none of the contract's`);
    return serialize(data);
  };
}

export interface SerializerOptions {
  /** Told once per route and status left to the zod serializer, with the reason. */
  onFallback?: (route: string, reason: string) => void;
  /**
   * Also encode every answer with zod and require the same JSON (tests): an answer outside its
   * contract fails as it did with the zod serializer, and a difference fails loudly.
   */
  check?: boolean;
}

/** Fastify's serializer compiler for response schemas given as zod schemas. */
export function responseSerializerCompiler(options: SerializerOptions = {}): FastifySerializerCompiler<z.ZodType> {
  const compiled = new WeakMap<object, Serialize | UnsupportedSchema>();
  return (route) => {
    // Built only where it is used: the fallback and the check.
    const zodSerializer = () => zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]) as Serialize;
    const schema = route.schema;
    let serialize = compiled.get(schema);
    if (!serialize) {
      try {
        serialize = compileSerializer(schema);
      } catch (error) {
        if (!(error instanceof UnsupportedSchema)) throw error;
        serialize = error;
      }
      compiled.set(schema, serialize);
    }
    if (serialize instanceof UnsupportedSchema) {
      options.onFallback?.(`${route.method} ${route.url} ${route.httpStatus ?? ''}`.trim(), serialize.message);
      return zodSerializer();
    }
    if (!options.check) return serialize;
    const fast = serialize;
    const zodSerialize = zodSerializer();
    return (data) => {
      const expected = zodSerialize(data);
      const actual = fast(data);
      if (!isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected))) {
        throw new Error(`${route.method} ${route.url}: the compiled serializer wrote ${actual}, zod ${expected}`);
      }
      return actual;
    };
  };
}
