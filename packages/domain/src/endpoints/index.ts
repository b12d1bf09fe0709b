/**
 * Every endpoint of the API, one file per domain. The server registers exactly these routes; the
 * console calls nothing else.
 */
import { healthEndpoints } from './health.ts';
import { authEndpoints } from './auth.ts';
import { accountEndpoints } from './account.ts';
import { usersEndpoints } from './users.ts';
import { invitationsEndpoints } from './invitations.ts';
import { organizationsEndpoints } from './organizations.ts';
import { billingEndpoints } from './billing.ts';
import { creditsEndpoints } from './credits.ts';
import { activityEndpoints } from './activity.ts';
import { dashboardEndpoints } from './dashboard.ts';
import { debugEndpoints } from './debug.ts';
import { settingsEndpoints } from './settings.ts';
import { agentsEndpoints } from './agents.ts';
import { apiKeysEndpoints } from './api-keys.ts';
import { machineEndpoints } from './machine.ts';
import { usageEndpoints } from './usage.ts';
import { pricingEndpoints } from './pricing.ts';
import { webhooksEndpoints } from './webhooks.ts';
import { mfaPolicyEndpoints } from './mfa-policy.ts';
import { identityEndpoints, scimTokensEndpoints } from './identity.ts';
import { invoicesEndpoints } from './invoices.ts';
import { statementsEndpoints } from './statements.ts';
import { alertLinesEndpoints } from './alert-lines.ts';
import { grantsEndpoints } from './grants.ts';

export { healthEndpoints, readinessSchema, type Readiness } from './health.ts';
export { authEndpoints } from './auth.ts';
export { accountEndpoints } from './account.ts';
export { usersEndpoints } from './users.ts';
export { invitationsEndpoints } from './invitations.ts';
export { organizationsEndpoints } from './organizations.ts';
export { billingEndpoints } from './billing.ts';
export { creditsEndpoints } from './credits.ts';
export { activityEndpoints } from './activity.ts';
export { dashboardEndpoints } from './dashboard.ts';
export { debugEndpoints } from './debug.ts';
export { settingsEndpoints } from './settings.ts';
export { agentsEndpoints } from './agents.ts';
export { apiKeysEndpoints } from './api-keys.ts';
export { machineEndpoints } from './machine.ts';
export { usageEndpoints } from './usage.ts';
export { pricingEndpoints } from './pricing.ts';
export { webhooksEndpoints } from './webhooks.ts';
export { mfaPolicyEndpoints } from './mfa-policy.ts';
export { identityEndpoints, scimTokensEndpoints } from './identity.ts';
export { invoicesEndpoints } from './invoices.ts';
export { statementsEndpoints } from './statements.ts';
export { alertLinesEndpoints } from './alert-lines.ts';
export { grantsEndpoints } from './grants.ts';

/** All endpoints, by domain. */
export const API = {
  health: healthEndpoints,
  auth: authEndpoints,
  account: accountEndpoints,
  users: usersEndpoints,
  invitations: invitationsEndpoints,
  organizations: organizationsEndpoints,
  billing: billingEndpoints,
  credits: creditsEndpoints,
  activity: activityEndpoints,
  dashboard: dashboardEndpoints,
  debug: debugEndpoints,
  settings: settingsEndpoints,
  agents: agentsEndpoints,
  apiKeys: apiKeysEndpoints,
  usage: usageEndpoints,
  machine: machineEndpoints,
  pricing: pricingEndpoints,
  webhooks: webhooksEndpoints,
  mfaPolicy: mfaPolicyEndpoints,
  identity: identityEndpoints,
  scimTokens: scimTokensEndpoints,
  invoices: invoicesEndpoints,
  statements: statementsEndpoints,
  alertLines: alertLinesEndpoints,
  grants: grantsEndpoints,
} as const;
