import { identitySentence } from './activity-identity.ts';
import { invoiceSentence } from './activity-invoices.ts';
import { alertLineSentence } from './activity-alert-lines.ts';
import { count, obj, str } from './activity-text.ts';
import { formatUnits } from './activity-ledger.ts';
import { detailsOf } from './audit-details.ts';
import { roleLabel } from './roles.ts';
import { formatAmount } from './format-amount.ts';

export { formatAmount };
export * from './activity-actions.ts';
export * from './activity-ledger.ts';
/**
 * What the audit log records, as a person reads it: one sentence per action, built from the
 * row's facts (who, the organization, the target's name, the details the service stored).
 * The server writes these sentences into the activity log and its CSV; the ledger's
 * descriptions come from here too, so the console and the export say the same thing.
 */

/** A role of the details as every screen shows roles; ? when there is none. */
const roleOf = (value: unknown): string => {
  const role = str(value);
  return role ? roleLabel(role) : '?';
};
/** A second factor's code as a person names it. */
const stepUpText = (method: unknown) =>
  method === 'password'
    ? 'their password'
    : method === 'recovery_code'
      ? 'a recovery code'
      : method === 'passkey'
        ? 'a passkey'
        : method === 'sso'
          ? 'their identity provider'
          : 'a code from their authenticator app';
const factorText = (method: unknown) =>
  method === 'recovery_code' ? 'recovery code' : method === 'passkey' ? 'passkey' : 'authenticator code';
const signInMethodText = (method: unknown) =>
  method === 'recovery_code' ? 'a recovery code' : method === 'passkey' ? 'a passkey' : 'a code from their authenticator app';

/** A grace period in words: "1 hour", "24 hours", "7 days", "90 seconds". */
function graceText(seconds: number): string {
  const unit = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  if (seconds % 86_400 === 0 && seconds >= 7 * 86_400) return unit(seconds / 86_400, 'day');
  if (seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/** The facts of one audit row a sentence is built from. */
export interface ActivityFacts {
  action: string;
  /** "Ana Ruiz", the e-mail when the person has no name, "Key ci-runner" for a machine action, null when nobody is known. */
  actor: string | null;
  /** The organization the row belongs to. */
  organization: string | null;
  /** The name of what the action acted on (an organization, a person, a key), when known. */
  target: string | null;
  /** As the row stores them; read through `detailsOf`, so a row in an older shape still reads. */
  details: Record<string, unknown>;
}

/** One sentence per action: "Ana Ruiz allocated 500.00 credits to Acme Dental". */
export function activitySentence({ action, actor, organization, target, details: stored }: ActivityFacts): string {
  const details = detailsOf(action, stored);
  const who = actor ?? 'Someone';
  const org = organization ?? 'an organization';
  const them = target ?? 'an organization';
  const amount = `${formatAmount(details.amount)} credits`;
  const reason = str(details.reason);
  const notes = str(details.notes);
  switch (action) {
    case 'auth.sign_in':
      return `${who} signed in`;
    case 'auth.sign_in_failed':
      return `Failed sign-in for ${str(details.email) ?? who}`;
    case 'auth.password_changed':
      return `${who} changed their password`;
    case 'auth.password_reset':
      return `${who} reset their password with a recovery link`;
    case 'auth.recovery_requested':
      return `${who} asked for a password recovery link`;
    case 'auth.mfa_challenge_failed':
      return `Wrong ${factorText(details.method)} at the sign-in of ${target ?? actor ?? 'a person'}${
        typeof details.failures === 'number' ? ` (${count(details.failures)} wrong so far)` : ''
      }`;
    case 'auth.mfa_sign_in':
      return `${who} signed in with ${signInMethodText(details.method)}${details.passwordless === true ? ' (no password)' : ''}`;
    case 'auth.mfa_enrolled':
      return `${who} set up an authenticator app`;
    case 'auth.mfa_removed':
      return `${who} removed their authenticator app`;
    // Passkeys
    case 'auth.mfa_passkey_added':
      return `${who} added a passkey${str(details.name) ? ` "${str(details.name)}"` : ''}`;
    case 'auth.mfa_passkey_renamed':
      return `${who} renamed a passkey${str(details.name) ? ` to "${str(details.name)}"` : ''}`;
    case 'auth.mfa_passkey_removed':
      return `${who} removed a passkey${str(details.name) ? ` "${str(details.name)}"` : ''}`;
    case 'auth.recovery_codes_regenerated':
      return `${who} made new recovery codes`;
    case 'auth.sessions_ended': {
      const sessions = `${count(details.count)} session${details.count === 1 ? '' : 's'}`;
      return details.by === 'admin' ? `${who} ended ${sessions} of ${target ?? 'a person'}` : `${who} ended ${sessions} of their own`;
    }
    case 'auth.step_up':
      return `${who} confirmed it was them with ${stepUpText(details.method)}`;
    case 'auth.step_up_failed':
      // Through the provider nothing is typed here: the provider refused, or someone else logged in there.
      if (details.method === 'sso')
        return `${who} could not confirm it was them with their identity provider${str(details.reason) ? `: ${str(details.reason)}` : ''}`;
      return `${who} gave a wrong ${details.method === 'password' ? 'password' : factorText(details.method)} to confirm it was them`;
    case 'auth.mfa_reset':
      return `${who} reset the second factors of ${target ?? 'a person'}, ending ${count(details.ended)} session${details.ended === 1 ? '' : 's'}`;
    case 'user.update': {
      const changes = obj(details.changes);
      if (typeof changes.status === 'string') return `${who} set the status of ${target ?? 'a person'} to ${changes.status}`;
      return `${who} edited ${target ?? 'a person'}`;
    }
    case 'user.role_change':
      return `${who} changed the role of ${target ?? 'a person'} from ${roleOf(details.before)} to ${roleOf(details.after)}`;
    case 'user.deactivate':
      return `${who} deactivated ${target ?? 'a person'}`;
    case 'invitation.create':
      return `${who} invited ${str(details.email) ?? target ?? 'someone'} to ${org}${str(details.role) ? ` as ${roleOf(details.role)}` : ''}`;
    case 'invitation.resend':
      return `${who} resent the invitation of ${target ?? 'someone'}`;
    case 'invitation.link':
      return `${who} copied a new invitation link for ${target ?? 'someone'}`;
    case 'invitation.revoke':
      return `${who} revoked the invitation of ${str(details.email) ?? target ?? 'someone'}`;
    case 'invitation.accept':
      return `${who} accepted an invitation to ${org}`;
    case 'invitation.register':
      return `${who} registered by invitation to ${org}`;
    case 'organization.create':
      return `${who} created ${str(details.name) ?? them}`;
    case 'organization.update': {
      const after = obj(details.after);
      if (typeof after.status === 'string') return `${who} set the status of ${them} to ${after.status}`;
      return `${who} edited ${them}`;
    }
    case 'organization.delete':
      return `${who} deleted ${str(details.name) ?? them}`;
    case 'credits.allocate':
      return `${who} allocated ${amount} to ${them}${notes ? ` (${notes})` : ''}`;
    case 'credits.reverse_allocation':
      return `${who} reversed an allocation of ${amount} to ${them}${reason ? `: ${reason}` : ''}`;
    case 'credits.initial_balance':
      return `${who} gave ${them} an initial balance of ${amount}`;
    case 'credits.adjust_increase':
      return `${who} added ${amount} to ${them}${reason ? `: ${reason}` : ''}`;
    case 'credits.adjust_decrease':
      return `${who} removed ${amount} from ${them}${reason ? `: ${reason}` : ''}`;
    case 'credits.refund':
      return `${who} refunded ${amount} to ${them}${str(details.refund_of) ? ` for ${str(details.refund_of)}` : ''}`;
    case 'billing.agent_limit':
      return `${who} set the agent limit of ${them} from ${count(details.before)} to ${count(details.after)}`;
    case 'billing.low_balance_threshold':
      return `${who} set the low-balance threshold of ${them} from ${formatAmount(details.before)} to ${formatAmount(details.after)} credits`;
    case 'pricing.price_set': {
      const price = (value: unknown) => (str(value) ? `${formatUnits(str(value)!)} a unit` : 'pass-through');
      return `${who} set what the children of ${them} pay for ${str(details.agent) ?? 'an agent'}${'after' in details ? ` from ${price(details.before)} to ${price(details.after)}` : ''}`;
    }
    case 'pricing.child_price_set': {
      const price = (value: unknown) => (str(value) ? `${formatUnits(str(value)!)} a unit` : 'the book price');
      return `${who} set what ${them} pays for ${str(details.agent) ?? 'an agent'}${'after' in details ? ` from ${price(details.before)} to ${price(details.after)}` : ''}`;
    }
    case 'billing.spend_controls': {
      const cap = (value: unknown) => (str(value) ? `${formatAmount(value)} credits a month` : 'no cap');
      return `${who} set the spend cap of ${them} from ${cap(details.spend_cap_before)} to ${cap(details.spend_cap_after)}${
        details.top_up_after && typeof details.top_up_after === 'object'
          ? `, with an automatic top-up of ${formatAmount((details.top_up_after as Record<string, unknown>).amount)} below ${formatAmount((details.top_up_after as Record<string, unknown>).below)}`
          : details.top_up_before
            ? ', and removed its automatic top-up'
            : ''
      }`;
    }
    case 'top_up.made': {
      const why =
        details.reason === 'refused'
          ? ' for usage refused for want of credits'
          : details.reason === 'crossed' && str(details.below)
            ? `, its balance below ${formatAmount(details.below)}`
            : '';
      return `Automatic top-up: ${amount} moved to ${them}${why}`;
    }
    case 'agent.cap': {
      const cap = (value: unknown) => (str(value) ? `${formatAmount(value)} credits a month` : 'no cap');
      return `${who} set the monthly cap of an agent of ${org} from ${cap(details.before)} to ${cap(details.after)}`;
    }
    case 'agent.activate':
      return `${who} activated ${str(details.code) ?? 'an agent'} for ${org}`;
    case 'agent.deactivate':
      return `${who} deactivated an agent of ${org}`;
    case 'agents.status_reported': {
      // A row stands for every change reported since the previous one (at most one row an hour).
      const changes = typeof details.changes === 'number' && details.changes > 1 ? `; ${details.changes} changes since the last entry` : '';
      return `${who} reported ${str(details.agent) ?? 'an agent'} as ${str(details.to) ?? '?'} (was ${str(details.from) ?? '?'})${changes}`;
    }
    case 'agent_type.create':
      return `${who} added the agent type ${str(details.name) ?? str(details.code) ?? target ?? '?'}`;
    case 'agent_type.update':
      return `${who} edited the agent type ${target ?? '?'}`;
    case 'agent_type.retire':
      return `${who} retired the agent type ${target ?? '?'}`;
    case 'api_key.create':
      return `${who} created the API key ${str(details.name) ?? target ?? '?'}`;
    case 'api_key.update':
      return `${who} edited the API key ${target ?? str(details.prefix) ?? '?'}`;
    case 'api_key.rolled': {
      const grace = typeof details.grace_seconds === 'number' ? details.grace_seconds : null;
      const kept = grace ? `, the old secret working for ${graceText(grace)}` : ', the old secret ending at once';
      return `${who} rolled the API key ${target ?? str(details.prefix) ?? '?'} to a new secret${kept}`;
    }
    case 'api_key.revoke':
      return `${who} revoked the API key ${target ?? str(details.prefix) ?? '?'}`;
    case 'webhook.create':
      return `${who} added the webhook endpoint ${str(details.url) ?? '?'}`;
    case 'webhook.update':
      return details.enabled === false
        ? `${who} disabled the webhook endpoint ${str(details.url) ?? '?'}`
        : details.enabled === true
          ? `${who} enabled the webhook endpoint ${str(details.url) ?? '?'}`
          : `${who} edited the webhook endpoint ${str(details.url) ?? '?'}`;
    case 'webhook.delete':
      return `${who} deleted the webhook endpoint ${str(details.url) ?? '?'}`;
    case 'webhook.rotate':
      return `${who} rotated the signing secret of ${str(details.url) ?? '?'}, the old one signing for ${graceText(Number(details.grace_hours ?? 0) * 3600)} more`;
    case 'webhook.redeliver':
      return details.test
        ? `${who} sent a test event to ${str(details.url) ?? '?'}`
        : `${who} redelivered ${count(details.count)} event${details.count === 1 ? '' : 's'} to ${str(details.url) ?? '?'}`;
    case 'api_key.refused': {
      const why = str(details.reason);
      const reason =
        why === 'expired'
          ? 'it has expired'
          : why === 'rolled'
            ? "its old secret's grace period is over"
            : why === 'revoked'
              ? 'it was revoked'
              : why;
      return `The API key ${target ?? str(details.prefix) ?? '?'} was refused${reason ? `: ${reason}` : ''}`;
    }
    case 'usage.reported':
      return `${who} reported ${count(details.accepted)} usage events (${formatAmount(details.credits_charged)} credits)`;
    case 'usage.imported':
      return `${who} imported ${count(details.accepted)} usage events (${formatAmount(details.credits_charged)} credits)`;
    case 'bootstrap.first_house_admin':
      return `The first house admin of ${org} was created`;
    case 'settings.update':
      return `${who} changed the global settings (documentation, billing portal and community links)`;
    // Require-a-second-factor policy.
    case 'mfa_policy.changed':
      return `${who} set the second-factor policy of ${org}: ${mfaPolicyText(details.after)}`;
    default:
      return (
        identitySentence(action, { who, org, target, details }) ??
        invoiceSentence(action, { who, org, target, details }) ??
        alertLineSentence(action, { who, org, details }) ??
        `${who}: ${action.replace(/[._]/g, ' ')}`
      );
  }
}

/** A second-factor policy in words: what it requires and the grace it gives. */
function mfaPolicyText(policy: unknown): string {
  const p = (policy && typeof policy === 'object' ? policy : {}) as Record<string, unknown>;
  const whom = [
    p.require_own && 'its people',
    p.require_subtree && 'every organization below',
    p.require_admins && 'every admin in the tree',
  ].filter(Boolean);
  if (whom.length === 0) return 'no second factor required';
  const days = typeof p.grace_days === 'number' ? p.grace_days : null;
  return `a second factor required for ${whom.join(', ')}${days === null ? '' : ` within ${days} day${days === 1 ? '' : 's'}`}`;
}

/** A person as the activity log and the ledger name them: "Ana Ruiz", or the e-mail when they have no name. */
export function personName(person: { first_name?: string | null; last_name?: string | null; email: string }): string {
  const name = [person.first_name, person.last_name]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || person.email;
}
