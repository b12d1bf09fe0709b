-- Second factors reach webhooks (issue 39): a person's factor added or removed, an admin's
-- reset of a person's factors, and an organization's second-factor policy changed. The event
-- types an outbox row may hold grow by these four; the audit trigger (db/rules) writes them.
alter table webhook_events drop constraint webhook_events_type_check;
alter table webhook_events add constraint webhook_events_type_check check (type in (
  'balance.low', 'balance.recovered', 'usage.refused', 'credits.allocated', 'credits.adjusted',
  'agent_limit.warning', 'agent_limit.critical', 'agent_limit.changed',
  'agent.activated', 'agent.deactivated', 'agent.error',
  'api_key.created', 'api_key.rolled', 'api_key.revoked',
  'organization.created', 'organization.suspended', 'organization.deleted',
  'invitation.accepted', 'spend_cap.reached', 'top_up.succeeded', 'top_up.failed',
  'member.factor_added', 'member.factor_removed', 'member.factors_reset', 'organization.mfa_policy_changed',
  'webhook.test'));
