import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import document from '../../api-client/openapi.json' with { type: 'json' };
import { API_PREFIX, errorStatusesOf, type Endpoint } from './contract.ts';
import { API } from './endpoints/index.ts';

/**
 * The endpoint table is the contract both sides build on; the API document committed in
 * packages/api-client is what integrators and the generated client read. The server pins the
 * document to the table it serves; here each declaration is read against that document, so a
 * changed path, summary, permission, status or field in the domain fails the domain's own tests.
 */

type Json = Record<string, any>;
const all: Endpoint[] = Object.values(API).flatMap((group) => Object.values(group));
const paths = document.paths as Record<string, Record<string, Json>>;

function operationOf(endpoint: Endpoint): Json | undefined {
  return paths[API_PREFIX + endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
}

/** How the document writes a null in OpenAPI 3.0: beside a type (in a union's branches), and listed in a nullable enum. */
function openApiNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApiNullable);
  if (node === null || typeof node !== 'object') return node;
  const schema: Json = { ...(node as Json) };
  delete schema.$schema;
  // A union with null: the null branch goes, and the others admit null.
  const isNull = (branch: Json) => Array.isArray(branch.enum) && branch.enum.length === 1 && branch.enum[0] === null;
  if (Array.isArray(schema.anyOf) && schema.anyOf.some(isNull)) {
    schema.anyOf = (schema.anyOf as Json[]).filter((branch) => !isNull(branch)).map((branch) => ({ ...branch, nullable: true }));
  }
  if (schema.nullable === true && schema.type === undefined && (schema.anyOf || schema.oneOf)) {
    const key = schema.anyOf ? 'anyOf' : 'oneOf';
    schema[key] = (schema[key] as Json[]).map((branch, i) => (key === 'anyOf' || i === 0 ? { ...branch, nullable: true } : branch));
    delete schema.nullable;
  }
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, openApiNullable(value)]));
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  openApiNullable(z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }));

describe.each(all.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
  '%s in the API document',
  (_, endpoint) => {
    const operation = operationOf(endpoint);

    it('is there under its operationId, summary and tags', () => {
      expect(operation, 'regenerate with npm run api:generate').toBeDefined();
      expect(operation!.operationId).toBe(endpoint.operationId);
      expect(operation!.summary).toBe(endpoint.summary);
      expect(endpoint.summary.length).toBeGreaterThan(0);
      expect(operation!.tags).toEqual([...endpoint.tags]);
    });

    it('takes the credential and permission it declares', () => {
      const scheme = { public: [], session: [{ session: [] }], key: [{ apiKey: [] }] }[endpoint.auth];
      expect(operation!.security).toEqual(scheme);
      if (endpoint.permission) expect(operation!.description).toContain(`Requires the \`${endpoint.permission}\` permission.`);
      if (endpoint.scope) expect(operation!.description).toContain(`\`${endpoint.scope}\` scope`);
      // A route that moves money or secrets says it may answer 401 step_up_required; no other does.
      if (endpoint.stepUp) expect(operation!.description).toContain('`step_up_required`');
      else expect(operation!.description ?? '').not.toContain('step_up_required');
      if (!endpoint.permission && !endpoint.scope && !endpoint.stepUp) expect(operation!.description).toBeUndefined();
    });

    it('answers exactly its success statuses and the error statuses its declaration implies', () => {
      const expected = [...Object.keys(endpoint.responses).map(Number), ...errorStatusesOf(endpoint)].sort();
      expect(Object.keys(operation!.responses).map(Number).sort()).toEqual(expected);
      for (const [status, schema] of Object.entries(endpoint.responses)) {
        const content = operation!.responses[status].content;
        if (schema) expect(content['application/json'].schema).toEqual(jsonSchema(schema, 'output'));
        else if (endpoint.produces) expect(Object.keys(content)).toEqual([endpoint.produces]);
        else expect(content).toBeUndefined();
      }
    });

    it('takes the body, path, query and header fields it declares, with their rules', () => {
      const body = operation!.requestBody?.content?.['application/json']?.schema;
      if (endpoint.body) expect(body).toEqual(jsonSchema(endpoint.body, 'input'));
      else expect(body).toBeUndefined();
      const parameters = (operation!.parameters ?? []) as Json[];
      for (const [place, schema] of [
        ['path', endpoint.params],
        ['query', endpoint.query],
        ['header', endpoint.headers],
      ] as const) {
        const declared = parameters.filter((p) => p.in === place);
        if (!schema) {
          expect(declared).toEqual([]);
          continue;
        }
        const object = jsonSchema(schema, 'input') as Json;
        const required: string[] = object.required ?? [];
        expect(declared.map((p) => p.name).sort()).toEqual(Object.keys(object.properties).sort());
        for (const parameter of declared) {
          // Header names are case-insensitive; the document writes them as declared.
          expect(parameter.schema, `${place} ${parameter.name}`).toEqual(object.properties[parameter.name]);
          expect(parameter.required, `${place} ${parameter.name} required`).toBe(place === 'path' || required.includes(parameter.name));
        }
      }
    });
  },
);

describe('the API document', () => {
  it('holds no operation the contract does not declare', () => {
    const declared = new Set(all.map((e) => `${e.method} ${API_PREFIX}${e.path.replace(/:(\w+)/g, '{$1}')}`));
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.filter((key) => !declared.has(key))).toEqual([]);
  });
});
