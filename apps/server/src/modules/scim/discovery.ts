import { IDENTITY, MESSAGES, SCIM_SCHEMA, type ScimAttribute } from '@console/domain';
import { ScimError } from './errors.ts';
import { listResponse } from './paging.ts';

const text = (name: string, extra: Partial<ScimAttribute> = {}): ScimAttribute => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

const reference = (name: string, description: string): ScimAttribute => ({
  ...text(name, { multiValued: true, mutability: name === 'groups' ? 'readOnly' : 'readWrite', description }),
  type: 'complex',
  subAttributes: [
    text('value', { mutability: name === 'groups' ? 'readOnly' : 'immutable' }),
    text('display', { mutability: 'readOnly' }),
    { ...text('$ref', { mutability: 'readOnly' }), type: 'reference', referenceTypes: ['User', 'Group'] },
  ],
});

/** The attributes this server keeps; others a provider sends are accepted and not kept. */
const SCHEMAS = [
  {
    id: SCIM_SCHEMA.user,
    name: 'User',
    description: "A person of the token's organization; userName is their e-mail address.",
    attributes: [
      text('userName', { required: true, uniqueness: 'server', description: "The person's e-mail address." }),
      {
        ...text('name'),
        type: 'complex' as const,
        subAttributes: [text('givenName'), text('familyName'), text('formatted', { mutability: 'readOnly' })],
      },
      text('displayName', { mutability: 'readOnly', description: 'The name, or the e-mail when there is none.' }),
      {
        ...text('emails', { multiValued: true, mutability: 'readOnly', description: 'The e-mail address of userName.' }),
        type: 'complex' as const,
        subAttributes: [text('value', { mutability: 'readOnly' }), text('type', { mutability: 'readOnly' })],
      },
      { ...text('active'), type: 'boolean' as const, description: 'false: the person cannot sign in and every session has ended.' },
      text('externalId', { caseExact: true }),
      reference('groups', 'The groups the person is a member of.'),
    ],
  },
  {
    id: SCIM_SCHEMA.group,
    name: 'Group',
    description: 'A group of people; named after a role of the organization (Admins, Managers, agency_user...) it gives that role.',
    attributes: [
      text('displayName', { required: true, uniqueness: 'server' }),
      text('externalId', { caseExact: true }),
      reference('members', "The group's members, by their id."),
    ],
  },
];

const RESOURCE_TYPES = [
  { id: 'User', name: 'User', endpoint: '/Users', schema: SCIM_SCHEMA.user, description: 'People' },
  { id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCIM_SCHEMA.group, description: 'Groups, some of which give roles' },
];

/** What the provider reads to learn this server: its features, its resource types and their schemas. */
export function createDiscovery(baseUrl: string) {
  const resourceType = (type: (typeof RESOURCE_TYPES)[number]) => ({
    schemas: [SCIM_SCHEMA.resourceType],
    ...type,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${type.id}` },
  });
  const schema = (definition: (typeof SCHEMAS)[number]) => ({
    schemas: [SCIM_SCHEMA.schema],
    ...definition,
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${definition.id}` },
  });
  const find = <T extends { id: string }>(list: T[], id: string) => {
    const found = list.find((item) => item.id.toLowerCase() === id.toLowerCase());
    if (!found) throw new ScimError(404, MESSAGES.identity.scimNoRoute('GET', id));
    return found;
  };

  return {
    serviceProviderConfig: () => ({
      schemas: [SCIM_SCHEMA.serviceProviderConfig],
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: IDENTITY.scimMaxPage },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'Bearer token',
          description: "A SCIM token made on the organization's Identity page: Authorization: Bearer scim_...",
          primary: true,
        },
      ],
      meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
    }),
    resourceTypes: () => listResponse(RESOURCE_TYPES.map(resourceType), RESOURCE_TYPES.length, 1),
    resourceType: (id: string) => resourceType(find(RESOURCE_TYPES, id)),
    schemas: () => listResponse(SCHEMAS.map(schema), SCHEMAS.length, 1),
    schema: (id: string) => schema(find(SCHEMAS, id)),
  };
}
