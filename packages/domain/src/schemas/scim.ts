import { z } from 'zod';
import { isSingleLineText, isStorableText } from './common.ts';

/**
 * SCIM 2.0 (RFC 7643 resources, RFC 7644 protocol) as the /scim/v2 routes speak it. The
 * request schemas are lenient where identity providers differ (Entra writes booleans as
 * "True", both add attributes the console does not keep); the response schemas are what the
 * server answers and what its tests hold the answers to.
 */
export const SCIM_SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** What SCIM bodies are sent as; `application/json` is accepted too. */
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** The `scimType` of a 400 (and of a 409 `uniqueness`). */
export const SCIM_ERROR_TYPES = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
] as const;
export type ScimErrorType = (typeof SCIM_ERROR_TYPES)[number];

// Requests ------------------------------------------------------------------------

/** A boolean, or its text in any case ("True", "false"): Entra sends the text in PATCH values. */
export const scimBooleanSchema = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false']))
    .transform((value) => value === 'true'),
]);

/** A text the console keeps (a name, an id of the provider's): one line, storable, at most `max` characters. */
const keptText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => isSingleLineText(value) && isStorableText(value), 'Must be one line of text.');

export const scimNameInputSchema = z.looseObject({
  givenName: keptText(100).nullish(),
  familyName: keptText(100).nullish(),
  formatted: z.string().max(500).nullish(),
});

export const scimEmailInputSchema = z.looseObject({
  value: z.string().trim().max(254),
  type: z.string().max(50).nullish(),
  primary: scimBooleanSchema.nullish(),
});

/** A person as a provider creates (POST) or replaces (PUT) them; `userName` is their e-mail. */
export const scimUserInputSchema = z.looseObject({
  schemas: z.array(z.string().max(200)).max(20).optional(),
  userName: z.string().trim().min(1).max(254),
  name: scimNameInputSchema.nullish(),
  displayName: z.string().max(500).nullish(),
  emails: z.array(scimEmailInputSchema).max(20).nullish(),
  active: scimBooleanSchema.nullish(),
  externalId: keptText(500).nullish(),
});
export type ScimUserInput = z.infer<typeof scimUserInputSchema>;

/** A member of a group: a person's id in this console. */
export const scimMemberInputSchema = z.looseObject({
  value: z.string().trim().min(1).max(100),
  display: z.string().max(500).nullish(),
});

export const scimGroupInputSchema = z.looseObject({
  schemas: z.array(z.string().max(200)).max(20).optional(),
  displayName: keptText(200).pipe(z.string().min(1)),
  externalId: keptText(500).nullish(),
  members: z.array(scimMemberInputSchema).max(5000).nullish(),
});
export type ScimGroupInput = z.infer<typeof scimGroupInputSchema>;

/** One PATCH operation; `op` in any case ("Replace" from Entra). */
export const scimPatchOperationSchema = z.looseObject({
  op: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['add', 'remove', 'replace'])),
  path: z.string().trim().min(1).max(500).optional(),
  value: z.unknown().optional(),
});
export type ScimPatchOperation = z.infer<typeof scimPatchOperationSchema>;

export const scimPatchOpSchema = z.looseObject({
  schemas: z.array(z.string().max(200)).max(20).optional(),
  Operations: z.array(scimPatchOperationSchema).min(1).max(1000),
});
export type ScimPatchOp = z.infer<typeof scimPatchOpSchema>;

// Responses -----------------------------------------------------------------------

const schemasWith = (urn: string) => z.array(z.string()).refine((list) => list.includes(urn), `Must name ${urn}.`);

/** `W/"..."`: a weak entity tag, changing with every change of the resource. */
export const scimVersionSchema = z.string().regex(/^W\/"[^"]+"$/);

export const scimMetaSchema = z.object({
  resourceType: z.enum(['User', 'Group']),
  created: z.iso.datetime({ offset: true }),
  lastModified: z.iso.datetime({ offset: true }),
  location: z.url(),
  version: scimVersionSchema,
});

const scimReferenceSchema = z.object({ value: z.string(), display: z.string().optional(), $ref: z.url().optional() });

export const scimUserSchema = z.object({
  schemas: schemasWith(SCIM_SCHEMA.user),
  id: z.uuid(),
  externalId: z.string().optional(),
  userName: z.string().min(1),
  name: z.object({ givenName: z.string().optional(), familyName: z.string().optional(), formatted: z.string().optional() }),
  displayName: z.string(),
  emails: z.array(z.object({ value: z.string(), type: z.string().optional(), primary: z.boolean().optional() })),
  active: z.boolean(),
  groups: z.array(scimReferenceSchema).optional(),
  meta: scimMetaSchema.extend({ resourceType: z.literal('User') }),
});
export type ScimUser = z.infer<typeof scimUserSchema>;

export const scimGroupSchema = z.object({
  schemas: schemasWith(SCIM_SCHEMA.group),
  id: z.uuid(),
  externalId: z.string().optional(),
  displayName: z.string().min(1),
  /** Left out when the request asked `excludedAttributes=members`. */
  members: z.array(scimReferenceSchema).optional(),
  meta: scimMetaSchema.extend({ resourceType: z.literal('Group') }),
});
export type ScimGroup = z.infer<typeof scimGroupSchema>;

/** A page of resources: `startIndex` is 1-based, `itemsPerPage` the number on this page. */
export const scimListResponseSchema = <T extends z.ZodType>(resource: T) =>
  z.object({
    schemas: z.tuple([z.literal(SCIM_SCHEMA.listResponse)]),
    totalResults: z.number().int().min(0),
    startIndex: z.number().int().min(1),
    itemsPerPage: z.number().int().min(0),
    Resources: z.array(resource),
  });

export const scimErrorSchema = z.object({
  schemas: z.tuple([z.literal(SCIM_SCHEMA.error)]),
  /** The HTTP status, as text. */
  status: z.string().regex(/^[1-5]\d\d$/),
  scimType: z.enum(SCIM_ERROR_TYPES).optional(),
  detail: z.string().optional(),
});
export type ScimErrorResponse = z.infer<typeof scimErrorSchema>;

const supported = z.object({ supported: z.boolean() });

export const scimServiceProviderConfigSchema = z.object({
  schemas: z.tuple([z.literal(SCIM_SCHEMA.serviceProviderConfig)]),
  documentationUri: z.string().optional(),
  patch: supported,
  bulk: supported.extend({ maxOperations: z.number().int().min(0), maxPayloadSize: z.number().int().min(0) }),
  filter: supported.extend({ maxResults: z.number().int().min(0) }),
  changePassword: supported,
  sort: supported,
  etag: supported,
  authenticationSchemes: z
    .array(z.object({ type: z.string(), name: z.string(), description: z.string(), primary: z.boolean().optional() }))
    .min(1),
  meta: z.object({ resourceType: z.literal('ServiceProviderConfig'), location: z.url() }).optional(),
});
export type ScimServiceProviderConfig = z.infer<typeof scimServiceProviderConfigSchema>;

export const scimResourceTypeSchema = z.object({
  schemas: z.tuple([z.literal(SCIM_SCHEMA.resourceType)]),
  id: z.string(),
  name: z.string(),
  endpoint: z.string().startsWith('/'),
  schema: z.string(),
  description: z.string().optional(),
  schemaExtensions: z.array(z.object({ schema: z.string(), required: z.boolean() })).optional(),
  meta: z.object({ resourceType: z.literal('ResourceType'), location: z.url() }),
});

/** An attribute of a schema definition, sub-attributes one level deep. */
const scimAttributeBase = z.object({
  name: z.string(),
  type: z.enum(['string', 'boolean', 'decimal', 'integer', 'dateTime', 'reference', 'complex', 'binary']),
  multiValued: z.boolean(),
  required: z.boolean(),
  caseExact: z.boolean().optional(),
  mutability: z.enum(['readOnly', 'readWrite', 'immutable', 'writeOnly']),
  returned: z.enum(['always', 'never', 'default', 'request']),
  uniqueness: z.enum(['none', 'server', 'global']).optional(),
  description: z.string().optional(),
  referenceTypes: z.array(z.string()).optional(),
});
export const scimAttributeSchema = scimAttributeBase.extend({ subAttributes: z.array(scimAttributeBase).optional() });
export type ScimAttribute = z.infer<typeof scimAttributeSchema>;

export const scimSchemaDefinitionSchema = z.object({
  schemas: z.tuple([z.literal(SCIM_SCHEMA.schema)]),
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  attributes: z.array(scimAttributeSchema),
  meta: z.object({ resourceType: z.literal('Schema'), location: z.url() }),
});
