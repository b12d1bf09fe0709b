import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, type WebhookEventType } from '@console/domain';

/** The part of an event type before its dot: the thing it is about ("balance", "api_key"). */
type GroupOf<T extends string> = T extends `${infer Group}.${string}` ? Group : never;
export type WebhookEventGroup = GroupOf<WebhookEventType>;

/** What each event reports, as its checkbox says it; the code stays beside it for those who wire receivers. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, string> = {
  'balance.low': 'Balance fell below the alert threshold',
  'balance.recovered': 'Balance back at or above the threshold',
  'usage.refused': 'Usage events refused',
  'credits.allocated': 'Credits allocated',
  'credits.adjusted': 'Balance adjusted',
  'credits.reversed': 'Allocation reversed',
  'agent_limit.warning': 'Active agents near the limit',
  'agent_limit.critical': 'Active agents at the limit',
  'agent_limit.changed': 'Agent limit changed',
  'agent.activated': 'Agent activated',
  'agent.deactivated': 'Agent deactivated',
  'agent.error': 'Agent reported an error',
  'api_key.created': 'API key created',
  'api_key.rolled': 'API key rolled',
  'api_key.revoked': 'API key revoked',
  'organization.created': 'Organization created',
  'organization.suspended': 'Organization suspended',
  'organization.deleted': 'Organization deleted',
  'invitation.accepted': 'Invitation accepted',
  'spend_cap.reached': 'Monthly spend cap reached',
  'top_up.succeeded': 'Automatic top-up made',
  'top_up.failed': 'Automatic top-up failed',
  'member.factor_added': 'Second factor added',
  'member.factor_removed': 'Second factor removed',
  'member.factors_reset': 'Second factors reset by an admin',
  'organization.mfa_policy_changed': 'Second-factor policy changed',
  'invoice.issued': 'Invoice issued',
  'invoice.paid': 'Invoice paid',
  'invoice.overdue': 'Invoice overdue',
  'credits.expiring': 'Credits expiring soon',
  'credits.expired': 'Credits expired',
  'price.changed': 'What this organization pays changed',
  'price.floored': 'Own price rose above the price book',
  'alert.crossed': 'Alert line crossed',
  'webhook.test': 'Test event',
};

const GROUP_LABELS: Record<WebhookEventGroup, string> = {
  balance: 'Balance',
  usage: 'Usage',
  credits: 'Credits',
  agent_limit: 'Agent limit',
  agent: 'Agents',
  api_key: 'API keys',
  organization: 'Organizations',
  invitation: 'Invitations',
  spend_cap: 'Spend caps',
  top_up: 'Automatic top-ups',
  member: 'People',
  invoice: 'Invoices',
  alert: 'Alert lines',
  price: 'Prices',
};

const groupOf = (type: WebhookEventType) => type.slice(0, type.indexOf('.')) as WebhookEventGroup;

/** The subscribable event types by what they are about, in the domain's order. */
export const WEBHOOK_EVENT_GROUPS: readonly { group: WebhookEventGroup; label: string; types: WebhookEventType[] }[] = (() => {
  const groups = new Map<WebhookEventGroup, WebhookEventType[]>();
  for (const type of WEBHOOK_EVENT_TYPES) groups.set(groupOf(type), [...(groups.get(groupOf(type)) ?? []), type]);
  return [...groups].map(([group, types]) => ({ group, label: GROUP_LABELS[group], types }));
})();
