import { isOrgType, type OrgType } from './hierarchy.ts';

/** Claims the console works with, whatever names and places the token used. */
export interface NormalizedClaims {
  user_id: string | null;
  email: string | null;
  role: string;
  org_id: string | null;
  organization_id: string | null;
  organization_type: OrgType | null;
  organization_name: string | null;
  isHouseRole: boolean;
  isAgencyRole: boolean;
}

/** One line of what the normalizer read from where: the debug page's Parsing Logs. */
export interface ParsingLogEntry {
  claim: string;
  source: string;
  value: unknown;
  note?: string;
}

export interface NormalizeResult {
  claims: NormalizedClaims;
  log: ParsingLogEntry[];
}

type Bag = Record<string, unknown>;

const FALLBACK: NormalizedClaims = {
  user_id: null,
  email: null,
  role: 'tenant_user',
  org_id: null,
  organization_id: null,
  organization_type: null,
  organization_name: null,
  isHouseRole: false,
  isAgencyRole: false,
};

/** The role a missing (or generic `authenticated`) role is inferred as, by organization type. */
const ROLE_BY_ORG_TYPE: Record<OrgType, string> = {
  house: 'house_admin',
  super_agency: 'super_agency_admin',
  agency: 'agency_admin',
  tenant: 'tenant_admin',
};

function asBag(value: unknown): Bag | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Bag) : null;
}

function pick(
  sources: [string, Bag | null][],
  names: string[],
  claim: string,
  log: ParsingLogEntry[],
  reject: (value: string) => boolean = () => false,
): string | null {
  for (const [sourceName, bag] of sources) {
    if (!bag) continue;
    for (const name of names) {
      const value = bag[name];
      if (typeof value !== 'string' || value === '') continue;
      if (reject(value)) {
        log.push({ claim, source: `${sourceName}.${name}`, value, note: 'ignored' });
        continue;
      }
      log.push({ claim, source: `${sourceName}.${name}`, value });
      return value;
    }
  }
  log.push({ claim, source: 'none', value: null, note: 'not found' });
  return null;
}

/**
 * Reads a decoded access token's payload. Claims may sit at the top level, under
 * app_metadata or under user_metadata, each under alternative names. A role found only in user_metadata (which a user can edit) never overrides
 * the server's, and no account is promoted by its e-mail.
 */
export function normalizeClaims(payload: unknown): NormalizeResult {
  const log: ParsingLogEntry[] = [];
  try {
    const top = asBag(payload);
    if (!top) throw new Error('token payload is not an object');
    const app = asBag(top.app_metadata);
    const user = asBag(top.user_metadata);
    const trusted: [string, Bag | null][] = [
      ['app_metadata', app],
      ['top', top],
    ];
    const all: [string, Bag | null][] = [...trusted, ['user_metadata', user]];

    const userRole = [user?.role, user?.user_role].find((v) => typeof v === 'string' && v !== '');
    if (userRole) {
      log.push({ claim: 'role', source: 'user_metadata', value: userRole, note: 'ignored: user_metadata is user-editable' });
    }
    let role = pick(trusted, ['role', 'user_role'], 'role', log, (v) => v === 'authenticated');
    const orgId = pick(all, ['org_id', 'organization_id'], 'org_id', log);
    // The organization type drives role inference, so like the role it is read only
    // from server-owned places; a value that is not a type is passed over.
    const trustedType = pick(trusted, ['org_type', 'organization_type'], 'org_type', log, (v) => !isOrgType(v)) as OrgType | null;
    const orgName = pick(all, ['org_name', 'organization_name'], 'org_name', log);

    if (role === 'agency_admin' && trustedType === 'super_agency') {
      role = 'super_agency_admin';
      log.push({ claim: 'role', source: 'rule', value: role, note: 'agency_admin in a super_agency' });
    }
    if (!role) {
      role = trustedType ? ROLE_BY_ORG_TYPE[trustedType] : 'tenant_user';
      log.push({ claim: 'role', source: 'rule', value: role, note: 'inferred from organization type' });
    }

    const claims: NormalizedClaims = {
      user_id: typeof top.sub === 'string' ? top.sub : null,
      email: typeof top.email === 'string' ? top.email : null,
      role,
      org_id: orgId,
      organization_id: orgId,
      organization_type: trustedType,
      organization_name: orgName,
      isHouseRole: role.includes('house_') || trustedType === 'house',
      isAgencyRole: role.includes('agency_') || trustedType === 'agency' || trustedType === 'super_agency',
    };
    return { claims, log };
  } catch (error) {
    log.push({ claim: '*', source: 'error', value: String(error), note: 'fallback to tenant_user' });
    return { claims: { ...FALLBACK }, log };
  }
}

/** Decodes the payload part of a JWT without verifying it (the UI only displays it). */
export function decodeJwtPart(token: string, part: 0 | 1): Bag | null {
  const segment = token.split('.')[part];
  if (!segment) return null;
  try {
    const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return asBag(JSON.parse(new TextDecoder().decode(bytes)));
  } catch {
    return null;
  }
}
