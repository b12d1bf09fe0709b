import { describe, expect, it } from 'vitest';
import type { OrgType } from './hierarchy.ts';
import {
  mayAllocateCredits,
  mayAllocateFrom,
  mayEditOrganization,
  mayEditOrganizations,
  mayManageApiKeysOf,
  mayManageWebhooksOf,
  mayViewApiKeysOf,
  mayViewWebhooksOf,
  type Actor,
} from './policy.ts';

/**
 * The predicates the console shows an action by before it knows the target or the standing (the
 * role's part), and the reads a frozen organization's admins keep (keys and webhooks).
 */

const at = (role: string, org_type: OrgType, extra: Partial<Actor['organization']> = {}): Actor => ({
  userId: 'me',
  role,
  organization: { id: 'o', org_type, ...extra },
});
const own = { id: 'o', parent_org_id: 'h' };
const other = { id: 'x', parent_org_id: 'h' };
const LEVELS = ['admin', 'manager', 'user', 'support'] as const;

describe("the role's part, before the target is known", () => {
  it('edits organizations: admins and managers, frozen or not', () => {
    expect(LEVELS.filter((level) => mayEditOrganizations({ role: `agency_${level}` }))).toEqual(['admin', 'manager']);
    expect(mayEditOrganizations({ role: 'admin' })).toBe(true);
    expect(mayEditOrganizations({ role: 'nobody' })).toBe(false);
    const frozen = at('agency_manager', 'agency', { status: 'suspended' });
    expect(mayEditOrganizations(frozen)).toBe(true);
    expect(mayEditOrganization(frozen, own)).toBe(false);
  });

  it('moves credits: admins only, frozen or not', () => {
    expect(LEVELS.filter((level) => mayAllocateCredits({ role: `tenant_${level}` }))).toEqual(['admin']);
    expect(mayAllocateCredits({ role: '' })).toBe(false);
    const frozen = at('agency_admin', 'agency', { ancestor_status: 'inactive' });
    expect(mayAllocateCredits(frozen)).toBe(true);
    expect(mayAllocateFrom(frozen, own)).toBe(false);
  });
});

describe.each([
  ['API keys', mayViewApiKeysOf, mayManageApiKeysOf],
  ['webhooks', mayViewWebhooksOf, mayManageWebhooksOf],
] as const)('%s', (_name, view, manage) => {
  it("are read by the own organization's admins, at every type", () => {
    for (const type of ['house', 'super_agency', 'agency', 'tenant'] as const) {
      expect(LEVELS.filter((level) => view(at(`${type}_${level}`, type), own))).toEqual(['admin']);
    }
    expect(view(at('tenant_admin', 'tenant'), other)).toBe(false);
  });

  it("a frozen organization's admins still read them and change nothing", () => {
    for (const frozen of [
      at('agency_admin', 'agency', { status: 'suspended' }),
      at('agency_admin', 'agency', { ancestor_status: 'inactive' }),
    ]) {
      expect(view(frozen, own)).toBe(true);
      expect(manage(frozen, own)).toBe(false);
    }
    expect(manage(at('agency_admin', 'agency'), own)).toBe(true);
    expect(manage(at('agency_admin', 'agency'), other)).toBe(false);
    expect(manage(at('agency_manager', 'agency'), own)).toBe(false);
  });
});
