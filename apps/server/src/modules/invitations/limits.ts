import { MESSAGES, type OrgType } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { countOrRefuse, type CountRule } from '../../lib/rate-limit.ts';
import type { RateLimitSettings } from '../../lib/rate-limit-settings.ts';

/** The settings the invitation limits read (RATE_LIMITS, scaled by RATE_LIMIT_FACTOR). */
export type InvitationLimitSettings = Pick<
  RateLimitSettings,
  | 'invitationsPerInviter'
  | 'invitationsPerRecipient'
  | 'invitationsPerSuperAgency'
  | 'invitationsPerAgency'
  | 'invitationsPerTenant'
  | 'invitationWindowSeconds'
  | 'invitationResendIntervalSeconds'
>;

/** What one invitation link is counted by: who made it, for which organization, to whom. */
export interface InvitationSend {
  invitationId: string;
  inviterId: string;
  /** The path of the invitation's organization, `/<house>/.../<organization>/`. */
  organizationPath: string;
  email: string;
}

const m = MESSAGES.invitations;

/**
 * The limits on invitation links, counted in the `rate_limits` table inside the request's
 * transaction: a refused request rolls back with its counts, so it changes nothing and uses
 * up no allowance, and counts are shared by every server process.
 *
 * Every link made counts (a creation, a resend, a copied link): per inviter, per recipient
 * address, and per subtree of the invitation's organization and of each ancestor below the
 * house. A mail of an invitation also starts its resend interval, within which a resend of
 * it is refused.
 */
export function createInvitationLimits(settings: InvitationLimitSettings) {
  const window = settings.invitationWindowSeconds;
  const perSubtree: Partial<Record<OrgType, number>> = {
    super_agency: settings.invitationsPerSuperAgency,
    agency: settings.invitationsPerAgency,
    tenant: settings.invitationsPerTenant,
  };

  /**
   * Counts a link against the limits, in the caller's transaction; past any of them throws
   * 429 with the longest wait. `mailed` starts the invitation's resend interval.
   */
  async function count(trx: Executor, send: InvitationSend, mailed: boolean): Promise<void> {
    const ids = send.organizationPath.split('/').filter(Boolean);
    const orgs = ids.length === 0 ? [] : await trx.selectFrom('organizations').select(['id', 'org_type']).where('id', 'in', ids).execute();
    const rules: CountRule[] = [
      {
        key: `invitation:inviter:${send.inviterId}`,
        max: settings.invitationsPerInviter,
        windowSeconds: window,
        message: m.tooManyFromInviter,
      },
      {
        key: `invitation:recipient:${send.email.trim().toLowerCase()}`,
        max: settings.invitationsPerRecipient,
        windowSeconds: window,
        message: m.tooManyToAddress,
      },
    ];
    for (const org of orgs) {
      const max = perSubtree[org.org_type];
      // The house has no allowance of its own: its children's subtrees are the limit.
      if (max !== undefined)
        rules.push({ key: `invitation:subtree:${org.id}`, max, windowSeconds: window, message: m.tooManyForOrganization });
    }
    if (mailed) {
      rules.push({
        key: `invitation:sent:${send.invitationId}`,
        max: 1,
        windowSeconds: settings.invitationResendIntervalSeconds,
        message: m.resentTooSoon,
      });
    }
    await countOrRefuse(trx, rules);
  }

  return { count };
}

export type InvitationLimits = ReturnType<typeof createInvitationLimits>;
