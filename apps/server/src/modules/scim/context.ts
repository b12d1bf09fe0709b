import type { Kysely } from 'kysely';
import type { OrgStatus, OrgType } from '@console/domain';
import type { DB } from '../../db/schema.ts';

/** The token a SCIM request authenticated with, and the one organization it provisions. */
export interface ScimCredential {
  id: string;
  name: string;
  prefix: string;
  organization: {
    id: string;
    name: string;
    org_type: OrgType;
    /** Its own status or an ancestor's is not active: the provider may read, but change nothing. */
    frozen: { status: Exclude<OrgStatus, 'active'>; where: 'own' | 'ancestor' } | null;
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The SCIM token of a request to /scim/v2, once authenticated. */
    scimToken: ScimCredential | null;
    /** What the call did, in a few words, for the Identity page's list of calls. */
    scimOutcome: string | null;
  }
}

/** Who makes a change: the token, and the request's address and id for the audit row. */
export interface ScimActor {
  token: ScimCredential;
  ip: string;
  requestId: string;
}

export interface ScimDeps {
  db: Kysely<DB>;
  /** `<appUrl>/scim/v2`: resources' locations start with it. */
  baseUrl: string;
}
