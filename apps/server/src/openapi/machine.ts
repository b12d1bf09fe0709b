import {
  MACHINE_RATE_LIMITS,
  MESSAGES,
  USAGE_WINDOW,
  machineEndpoints,
  type Entitlement,
  type HeartbeatInput,
  type UsageBatchInput,
  type UsageBatchResult,
  type UsageCapRefusal,
  type UsageEventResult,
  type UsageRejection,
} from '@console/domain';

/**
 * What an agent runtime team reads of the machine API: the rules of retrying and the
 * examples of each route, in the API document under the `machine` tag.
 */

const m = MESSAGES.usage;
const megabytes = (bytes: number) => `${bytes / (1024 * 1024)} MB`;
const n = (count: number) => count.toLocaleString('en-US');

/** The tag's description: how to call the machine API and retry safely. */
export const MACHINE_DESCRIPTION = [
  'The machine API an agent runtime calls with an API key (`Authorization: Bearer oc_...`), made by the admins of its organization. Each route takes a key holding its scope; a key acts for its own organization and those below it.',
  '',
  `**Retrying is safe.** Every usage event carries the runtime's own \`id\`, and an event is recorded at most once per \`id\` and organization. Send a batch again whenever its answer did not arrive (a timeout, a dropped connection, a 429 or a 503): an event already recorded answers \`duplicate\` with its first outcome (\`credits_charged\` is what it took then) and charges nothing again. A rejected event is not stored, so the same event sent again is decided afresh: once the organization is funded or the agent activated, it may be accepted. A batch is recorded whole or not at all; an error answer recorded nothing. An event's id answers \`duplicate\` for ${USAGE_WINDOW.idKeepDays} days after the event occurred (the ${USAGE_WINDOW.pastDays}-day window and a week more); after that the same event is older than the window and is rejected, never charged twice. Keys and the house's usage import have their own ids: an id a key used does not stop the house's import of the same id.`,
  '',
  `**Limits.** A batch holds 1 to ${USAGE_WINDOW.batchMax.toLocaleString('en-US')} events and at most ${megabytes(machineEndpoints.reportUsage.bodyLimit)}; a larger one is refused whole with 413. \`occurred_at\` may be at most ${USAGE_WINDOW.futureSeconds / 60} minutes ahead of the server's clock and at most ${USAGE_WINDOW.pastDays} days behind; outside that window the event is rejected as \`invalid\`. An event's \`metadata\` holds at most ${USAGE_WINDOW.metadataKeysMax} keys, one level deep, each a string of up to 500 characters, a number, a boolean or null. An event is charged at its agent's price in force when it occurred, or, for an event that arrives more than ${USAGE_WINDOW.priceGraceSeconds / 60} minutes after it occurred, at the price in force ${USAGE_WINDOW.priceGraceSeconds / 60} minutes before it arrived: dating an event earlier never picks an older price.`,
  '',
  `**Rate limits.** Requests are counted in one-minute windows across every server process. Each request counts against its key (${n(MACHINE_RATE_LIMITS.keyPerMinute)} a minute unless its organization's admins set the key's own limit, up to a ceiling the house sets) and against the subtree of each organization from the house's child down to the key's own (a super agency's ${n(MACHINE_RATE_LIMITS.subtreePerMinute.super_agency)}, an agency's ${n(MACHINE_RATE_LIMITS.subtreePerMinute.agency)}, a tenant's ${n(MACHINE_RATE_LIMITS.subtreePerMinute.tenant)}), so the keys below an agency share its allowance. Every answer names its limits in \`RateLimit-Policy\` and what is left in \`RateLimit\`. Over a limit the answer is 429 with \`Retry-After\`, and nothing was done: send the same request again after that many seconds. A key refused with 401 counts against the client address; after ${MACHINE_RATE_LIMITS.refusedPerAddressPerMinute} in a minute, the address is answered 429 until the window ends for every key that is not valid, while a valid key from it is still served (a key made or rolled moments before may be answered 429 there for up to ${MACHINE_RATE_LIMITS.liveKeysReloadSeconds} s).`,
  '',
  "**Outcomes.** The answer lists every event in the batch's order: `accepted` with the credits it took, `duplicate` (recorded before; nothing charged again), or `rejected` with a `reason`:",
  "- `out_of_reach`: the organization is not the key's own nor one below it, or it was deleted;",
  '- `organization_not_active`: the organization, or one above it, is suspended or inactive;',
  '- `unknown_agent`: no agent type has that code;',
  '- `agent_not_active`: the organization has no live activation of that agent;',
  '- `insufficient_credits`: the event costs more than the balance;',
  "- `invalid`: `occurred_at` is outside the window, the agent had no price then, or the `id` already names another entry of the organization's ledger;",
  "- `key_cap_reached`, `activation_cap_reached`, `spend_cap_reached`: a cap the event counts against would be passed: the key's, the activation's, or a spend cap on the organization or one above it (over its subtree).",
  '',
  `**Caps.** A cap stands on a window: a day, an ISO week (Monday to Sunday) or a calendar month, each in UTC, and one of each may stand at once on a key, an activation or an organization's subtree. An event counts against every one of them, and the first it would pass refuses it. A cap refusal carries \`cap\` (also in the entitlement check): what the cap is on (\`scope\`, \`name\`, \`organization_id\`), its \`limit\`, its \`window\` and \`window_start\`, \`resets_at\` (when the window ends and events may pass again), and \`set_by\`, the organization whose admins set it. An organization above the key's own is never named: it reads "${m.organizationAbove}" and carries no id.`,
].join('\n');

const ORGANIZATION = '5f0c2a4e-8b1d-4c3a-9e7f-2d6b1a0c9e84';
const event = (id: string, agent = 'support-assistant') => ({
  id,
  organization_id: ORGANIZATION,
  agent,
  units: 3,
  occurred_at: '2026-01-31T12:00:00Z',
});

export const BATCH_EXAMPLE: UsageBatchInput = {
  events: [
    { ...event('run-7f3a-0001'), metadata: { conversation: 'c-1842', model: 'small' } },
    { ...event('run-7f3a-0002'), units: '12.5', occurred_at: '2026-01-31T12:00:05+01:00' },
  ],
};

const accepted: UsageEventResult = {
  id: 'run-7f3a-0001',
  status: 'accepted',
  credits_charged: '0.75',
  reason: null,
  message: null,
  cap: null,
};
const rejected = (reason: UsageRejection, message: string, cap: UsageCapRefusal | null = null): UsageEventResult => ({
  id: 'run-7f3a-0002',
  status: 'rejected',
  credits_charged: null,
  reason,
  message,
  cap,
});

const AGENCY = '2c7e9b14-5d3a-4f60-8a1b-9e0d3c6f7a25';
const capOf = (
  scope: UsageCapRefusal['scope'],
  limit: string,
  window: UsageCapRefusal['window'],
  name: string,
  setBy: string,
): UsageCapRefusal => {
  const start = window === 'day' ? '2026-01-31' : window === 'week' ? '2026-01-26' : '2026-01-01';
  const resets = window === 'day' ? '2026-02-01' : window === 'week' ? '2026-02-02' : '2026-02-01';
  const above = setBy === m.organizationAbove;
  return {
    scope,
    limit,
    window,
    window_start: start,
    resets_at: `${resets}T00:00:00.000Z`,
    name,
    organization_id: ORGANIZATION,
    set_by: { organization_id: above ? null : scope === 'subtree' ? AGENCY : ORGANIZATION, name: setBy },
  };
};
const KEY_CAP = capOf('key', '500.00', 'month', 'support runtime', 'Acme Dental');
const ACTIVATION_CAP = capOf('activation', '120.00', 'week', 'Support Assistant', m.organizationAbove);
const SPEND_CAP = capOf('subtree', '2000.00', 'day', 'Acme Dental', m.organizationAbove);
const capMessage = (cap: UsageCapRefusal, say: typeof m.keyCapReached) =>
  say(cap.limit, cap.window, cap.resets_at, cap.name, cap.set_by.name);

const REJECTIONS: Record<UsageRejection, { summary: string; result: UsageEventResult }> = {
  out_of_reach: { summary: 'Rejected: organization out of reach', result: rejected('out_of_reach', m.outOfReach) },
  organization_not_active: {
    summary: 'Rejected: organization not active',
    result: rejected('organization_not_active', m.organizationNotActive),
  },
  unknown_agent: { summary: 'Rejected: unknown agent', result: rejected('unknown_agent', m.unknownAgent('support-asistant')) },
  agent_not_active: {
    summary: 'Rejected: agent not activated',
    result: rejected('agent_not_active', m.agentNotActive('support-assistant')),
  },
  insufficient_credits: {
    summary: 'Rejected: insufficient credits',
    result: rejected('insufficient_credits', m.insufficient('0.40', '3.13')),
  },
  invalid: { summary: 'Rejected: occurred_at too far in the past', result: rejected('invalid', m.behind(USAGE_WINDOW.pastDays)) },
  key_cap_reached: {
    summary: "Rejected: the key's monthly cap would be passed",
    result: rejected('key_cap_reached', capMessage(KEY_CAP, m.keyCapReached), KEY_CAP),
  },
  activation_cap_reached: {
    summary: "Rejected: the activation's weekly cap would be passed",
    result: rejected('activation_cap_reached', capMessage(ACTIVATION_CAP, m.activationCapReached), ACTIVATION_CAP),
  },
  spend_cap_reached: {
    summary: 'Rejected: a daily spend cap on the organization or one above it would be passed',
    result: rejected('spend_cap_reached', capMessage(SPEND_CAP, m.spendCapReached), SPEND_CAP),
  },
};

const batchOf = (results: UsageEventResult[]): UsageBatchResult => ({
  results,
  accepted: results.filter((r) => r.status === 'accepted').length,
  duplicates: results.filter((r) => r.status === 'duplicate').length,
  rejected: results.filter((r) => r.status === 'rejected').length,
});

/** The answers of a batch: one per outcome and per reason of rejection, and a mixed batch. */
export const BATCH_RESULT_EXAMPLES: Record<string, { summary: string; value: UsageBatchResult }> = {
  accepted: { summary: 'Accepted, with the credits charged', value: batchOf([accepted]) },
  duplicate: {
    summary: 'Duplicate: sent again, answered with its first outcome, nothing charged again',
    value: batchOf([{ ...accepted, status: 'duplicate' }]),
  },
  ...Object.fromEntries(
    Object.entries(REJECTIONS).map(([reason, { summary, result }]) => [`rejected_${reason}`, { summary, value: batchOf([result]) }]),
  ),
  mixed: {
    summary: 'A batch: one accepted, one duplicate, one rejected',
    value: batchOf([
      accepted,
      { ...accepted, id: 'run-7f3a-0000', status: 'duplicate', credits_charged: '1.20' },
      REJECTIONS.insufficient_credits.result,
    ]),
  },
};

export const HEARTBEAT_EXAMPLE: HeartbeatInput = {
  organization_id: ORGANIZATION,
  agent: 'support-assistant',
  status: 'active',
  health_score: 97,
};

export const HEARTBEAT_RESULT_EXAMPLE = {
  activation_id: '0b9d6f3e-2c41-4a8e-b7d5-6e1f9a3c2b70',
  status: 'active',
  health_score: 97,
  last_active_at: '2026-01-31T12:00:07.412Z',
} as const;

export const ENTITLEMENT_EXAMPLES: Record<string, { summary: string; value: Entitlement }> = {
  allowed: {
    summary: 'Allowed',
    value: {
      allowed: true,
      reason: null,
      cap: null,
      balance: '1250.00',
      spendable: '1200.00',
      soonest_expiry: { at: '2026-02-01T00:00:00.000Z', amount: '50.00' },
      activation_status: 'active',
      price: '0.2500',
    },
  },
  insufficient_credits: {
    summary: 'Not allowed: the balance is zero',
    value: {
      allowed: false,
      reason: 'insufficient_credits',
      cap: null,
      balance: '0.00',
      spendable: '0.00',
      soonest_expiry: null,
      activation_status: 'active',
      price: '0.2500',
    },
  },
  agent_not_active: {
    summary: 'Not allowed: no live activation',
    value: {
      allowed: false,
      reason: 'agent_not_active',
      cap: null,
      balance: '1250.00',
      spendable: '1250.00',
      soonest_expiry: null,
      activation_status: null,
      price: '0.2500',
    },
  },
  spend_cap_reached: {
    summary: 'Not allowed: a daily spend cap set above the organization is reached',
    value: {
      allowed: false,
      reason: 'spend_cap_reached',
      cap: SPEND_CAP,
      balance: '1250.00',
      spendable: '1250.00',
      soonest_expiry: null,
      activation_status: 'active',
      price: '0.2500',
    },
  },
};

/** The examples of each machine operation, by operationId: a request body, and success answers by name. */
export const MACHINE_EXAMPLES: Record<string, { request?: unknown; responses: Record<string, { summary: string; value: unknown }> }> = {
  [machineEndpoints.reportUsage.operationId]: { request: BATCH_EXAMPLE, responses: BATCH_RESULT_EXAMPLES },
  [machineEndpoints.heartbeat.operationId]: {
    request: HEARTBEAT_EXAMPLE,
    responses: { active: { summary: 'Recorded', value: HEARTBEAT_RESULT_EXAMPLE } },
  },
  [machineEndpoints.entitlement.operationId]: { responses: ENTITLEMENT_EXAMPLES },
};
