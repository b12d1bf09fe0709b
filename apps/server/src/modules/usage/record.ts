import { sql, type Kysely } from 'kysely';
import {
  MESSAGES,
  USAGE_WINDOW,
  WEBHOOKS,
  type ActivityAction,
  type AuditDetails,
  type UsageBatchResult,
  parseUsageRefusal,
  capRefusalOf,
  usageCapRefusal,
  type UsageEventResult,
  type UsageRefusal,
} from '@console/domain';
import { preparedStatement } from '../../db/connection.ts';
import type { DB } from '../../db/schema.ts';
import type { VerifiedKey } from '../../lib/api-key.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { utcText } from '../../lib/sql.ts';

const m = MESSAGES.usage;

/**
 * Who reports usage: an API key, acting for its organization and everything below it, or
 * a person (a house admin importing usage), acting for their organization's whole tree.
 */
export type UsageActor = { kind: 'key'; key: VerifiedKey } | { kind: 'user'; caller: Caller };

/** A usage event as validated (units an exact string with four places). */
export interface UsageEvent {
  id: string;
  organization_id: string;
  agent: string;
  units: string;
  occurred_at: string;
  metadata?: Record<string, string | number | boolean | null>;
}

interface OutcomeRow {
  r_ord: number;
  r_outcome: 'accepted' | 'duplicate' | 'rejected';
  /** Checked by parseUsageRefusal: a reason the domain does not list fails, it is never shown as nothing. */
  r_reason: unknown;
  r_detail: unknown;
  r_charged: string | null;
}

/**
 * Coalescing of a key's small batches: a batch of at most `smallBatch` events waits while its
 * key has `inFlightPerKey` statements running, and the waiting ones then go as one statement.
 * One at a time measured best: 630 single events/s at 16 connections, 360 with two (the
 * usage bench, PostgreSQL 15 on 2 cores), and a shorter wait for each.
 */
/** usage.refused: one event per organization and reason in each period of this many seconds. */
const REFUSED_PERIOD_SECONDS = WEBHOOKS.usageRefusedPeriodMinutes * 60;

const COALESCE = { smallBatch: 100, inFlightPerKey: 1 } as const;

const reachOf = (actor: UsageActor) => (actor.kind === 'key' ? actor.key.organization : actor.caller.organization);

/** The words of a refusal, from its reason and the detail the engine (usage_decide) gave. */
function messageOf(event: UsageEvent, refusal: UsageRefusal): string {
  switch (refusal.reason) {
    case 'out_of_reach':
      return m.outOfReach;
    case 'organization_not_active':
      return m.organizationNotActive;
    case 'unknown_agent':
      return m.unknownAgent(event.agent);
    case 'agent_not_active':
      return m.agentNotActive(event.agent);
    case 'insufficient_credits':
      return m.insufficient(refusal.detail.balance, refusal.detail.needed);
    case 'key_cap_reached': {
      const cap = usageCapRefusal(refusal.detail);
      return m.keyCapReached(cap.limit, cap.window, cap.resets_at, cap.name, cap.set_by.name);
    }
    case 'activation_cap_reached': {
      const cap = usageCapRefusal(refusal.detail);
      return m.activationCapReached(cap.limit, cap.window, cap.resets_at, cap.name, cap.set_by.name);
    }
    case 'spend_cap_reached': {
      const cap = usageCapRefusal(refusal.detail);
      return m.spendCapReached(cap.limit, cap.window, cap.resets_at, cap.name, cap.set_by.name);
    }
    case 'invalid':
      switch (refusal.detail.rule) {
        case 'ahead':
          return m.ahead(USAGE_WINDOW.futureSeconds);
        case 'behind':
          return m.behind(USAGE_WINDOW.pastDays);
        case 'no_price':
          return m.noPrice(event.agent, event.occurred_at);
      }
  }
}

interface BatchCall {
  payload: string;
  reach: string;
  keyId: string | null;
  userId: string | null;
  /** A key's events take the price in force no earlier than their arrival minus this; the house's import, null, the price of their time. */
  priceGrace: string | null;
  auditUser: string | null;
  auditOrg: string;
  action: ActivityAction;
  targetType: string;
  targetId: string;
  details: string;
  summaryBefore: string;
  summaryAfter: string;
  ip: string | null;
  requestId: string | null;
}

/** The audit details the statement adds to the fixed ones: its counts, its sum and its sentence. */
type CountedInSql = 'events' | 'accepted' | 'duplicates' | 'rejected' | 'credits_charged' | 'summary';

/**
 * A batch's one statement: `usage_record` (db/rules/functions/usage_record.sql) and, when the batch accepted
 * something, its audit row, counted from the outcomes. A key's reports are audited at most once an
 * hour (its first accepted batch of the hour): its events name it, so the audit log keeps who
 * reported without a row per request. Its text never changes, only the values.
 */
const batch = (b: BatchCall) => sql<OutcomeRow>`
  with outcome as materialized (
    select * from usage_record(${b.payload}::jsonb, ${b.reach}::text, ${b.keyId}::uuid, ${b.userId}::uuid,
      ${`${USAGE_WINDOW.futureSeconds} seconds`}::interval, ${`${USAGE_WINDOW.pastDays} days`}::interval, ${b.priceGrace}::interval,
      ${`${USAGE_WINDOW.idKeepDays} days`}::interval)
  ),
  key_due as (
    update api_keys k set usage_audited_at = now()
    where k.id = ${b.keyId}::uuid and (k.usage_audited_at is null or k.usage_audited_at <= now() - interval '1 hour')
      and exists (select 1 from outcome where r_outcome = 'accepted')
    returning k.id
  ),
  audit as (
    insert into audit_log (actor_user_id, organization_id, action, target_type, target_id, details, ip, request_id)
    select ${b.auditUser}::uuid, ${b.auditOrg}::uuid, ${b.action}::text, ${b.targetType}::text, ${b.targetId}::text,
      ${b.details}::jsonb || jsonb_build_object(
        'events', count(*),
        'accepted', count(*) filter (where r_outcome = 'accepted'),
        'duplicates', count(*) filter (where r_outcome = 'duplicate'),
        'rejected', count(*) filter (where r_outcome = 'rejected'),
        'credits_charged', coalesce(sum(r_charged::numeric) filter (where r_outcome = 'accepted'), 0)::numeric(16, 2)::text,
        'summary', ${b.summaryBefore}::text || count(*) filter (where r_outcome = 'accepted') || ${b.summaryAfter}::text),
      ${b.ip}::text, ${b.requestId}::text
    from outcome
    having count(*) filter (where r_outcome = 'accepted') > 0
      and (${b.keyId}::uuid is null or exists (select 1 from key_due))
  ),
  -- Refusals reach webhooks as usage.refused: one event per organization and reason in each
  -- period, whatever the number of batches refused in it (the later ones find the key taken).
  -- The payload is read again only when something was refused (an InitPlan runs at first use).
  refused as (
    insert into webhook_events (type, organization_id, data, dedupe_key)
    select 'usage.refused', o.id,
      jsonb_build_object('reason', r.reason, 'events', r.n,
        'period_start', to_char(to_timestamp(p.n * ${sql.lit(REFUSED_PERIOD_SECONDS)}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        'period_end', to_char(to_timestamp((p.n + 1) * ${sql.lit(REFUSED_PERIOD_SECONDS)}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
      'usage.refused:' || o.id || ':' || r.reason || ':' || p.n
    from (
      select (select ${b.payload}::jsonb) -> (r_ord - 1) ->> 'org' as org, r_reason as reason, count(*)::integer as n
      from outcome
      where r_outcome = 'rejected' and r_reason not in ('out_of_reach', 'invalid')
      group by 1, 2
    ) r
    join organizations o on o.id::text = r.org and o.path like ${b.reach}::text || '%'
    cross join (select floor(extract(epoch from now()) / ${sql.lit(REFUSED_PERIOD_SECONDS)})::bigint as n) p
    on conflict (dedupe_key) where dedupe_key is not null do nothing
  )
  select * from outcome order by r_ord`;

/** Usage events, from the machine API or the console's import, recorded by `usage_record`. */
export function createRecord({ db, onStatement }: { db: Kysely<DB>; onStatement?: (batches: number) => void }) {
  // Every batch sends the same text: on PostgreSQL each connection parses it once.
  const blank = {
    payload: '',
    reach: '',
    keyId: null,
    userId: null,
    priceGrace: null,
    auditUser: null,
    auditOrg: '',
    action: 'usage.reported' as const,
    targetType: '',
    targetId: '',
    details: '',
    summaryBefore: '',
    summaryAfter: '',
    ip: null,
    requestId: null,
  };
  preparedStatement(batch(blank).compile(db).sql);

  /**
   * Records batches of one reporter together and answers each batch's outcomes, event by
   * event in its order: accepted (with what it charged), a duplicate (the first outcome of its
   * id in its organization; nothing charged again), or rejected with a reason. The batches are
   * one statement, outside any explicit transaction (one round trip): one call of
   * `usage_record` (db/rules/functions/usage_record.sql) locks the balance rows of their
   * organizations in id order, decides every event in the batches' order, and writes the
   * accepted events, their consumption entries, the balances and the carries together, so
   * every batch is recorded whole or not at all. Rejected events are not stored: a retry is
   * evaluated afresh. One audit row per statement that accepted something (a key's, at most
   * one an hour), with the first batch's address and request id.
   */
  async function recordTogether(actor: UsageActor, batches: { events: UsageEvent[]; info: ClientInfo }[]): Promise<UsageBatchResult[]> {
    const reach = reachOf(actor);
    const events = batches.flatMap((b) => b.events);
    const info = batches[0]!.info;
    const payload = JSON.stringify(
      events.map((event, index) => ({
        i: index + 1,
        org: event.organization_id,
        id: event.id,
        agent: event.agent,
        units: event.units,
        occurred: utcText(event.occurred_at),
        meta: event.metadata ?? null,
      })),
    );
    // The audit row's fixed part; the function's outcomes give the counts and the sum.
    const audit =
      actor.kind === 'key'
        ? {
            user: null,
            action: 'usage.reported' as const,
            targetType: 'api_key',
            targetId: actor.key.id,
            summary: [`Key ${actor.key.name} reported `, ' usage events (its first report this hour)'],
            details: { key_name: actor.key.name, key_prefix: actor.key.prefix } satisfies Omit<
              AuditDetails<'usage.reported'>,
              CountedInSql
            >,
          }
        : {
            user: actor.caller.userId,
            action: 'usage.imported' as const,
            targetType: 'organization',
            targetId: reach.id,
            summary: [`${actor.caller.email} imported `, ' usage events'],
            details: {} satisfies Omit<AuditDetails<'usage.imported'>, CountedInSql>,
          };
    const { rows } = await batch({
      payload,
      reach: reach.path,
      keyId: actor.kind === 'key' ? actor.key.id : null,
      userId: actor.kind === 'user' ? actor.caller.userId : null,
      priceGrace: actor.kind === 'key' ? `${USAGE_WINDOW.priceGraceSeconds} seconds` : null,
      auditUser: audit.user,
      auditOrg: reach.id,
      action: audit.action,
      targetType: audit.targetType,
      targetId: audit.targetId,
      details: JSON.stringify(audit.details),
      summaryBefore: audit.summary[0]!,
      summaryAfter: audit.summary[1]!,
      ip: info.ip,
      requestId: info.requestId,
    }).execute(db);
    onStatement?.(batches.length);
    const results: UsageEventResult[] = rows.map((row) => {
      const event = events[row.r_ord - 1]!;
      if (row.r_outcome !== 'rejected') {
        return { id: event.id, status: row.r_outcome, credits_charged: row.r_charged, reason: null, message: null, cap: null };
      }
      const refusal = parseUsageRefusal(row.r_reason, row.r_detail);
      return {
        id: event.id,
        status: row.r_outcome,
        credits_charged: null,
        reason: refusal.reason,
        message: messageOf(event, refusal),
        cap: capRefusalOf(refusal),
      };
    });
    let from = 0;
    return batches.map((b) => {
      const mine = results.slice(from, (from += b.events.length));
      const count = (status: UsageEventResult['status']) => mine.filter((r) => r.status === status).length;
      return { results: mine, accepted: count('accepted'), duplicates: count('duplicate'), rejected: count('rejected') };
    });
  }

  /**
   * A key's small batches wait in its lane while it already has COALESCE.inFlightPerKey
   * statements running, and then go together as one (up to a full batch of events): a
   * runtime sending one event per request under load pays one statement for many requests,
   * not one each, and a lone request still goes at once. Each request still gets its own
   * outcomes, after the commit that records them. Should the joint statement fail, each
   * batch is tried alone, so one batch's fault is never another's.
   */
  const lanes = new Map<string, { running: number; waiting: Waiting[] }>();
  interface Waiting {
    key: VerifiedKey;
    events: UsageEvent[];
    info: ClientInfo;
    resolve: (result: UsageBatchResult) => void;
    reject: (error: unknown) => void;
  }

  function drain(keyId: string) {
    const lane = lanes.get(keyId);
    if (!lane) return;
    while (lane.running < COALESCE.inFlightPerKey && lane.waiting.length > 0) {
      let events = 0;
      let n = 0;
      while (n < lane.waiting.length && (n === 0 || events + lane.waiting[n]!.events.length <= USAGE_WINDOW.batchMax)) {
        events += lane.waiting[n]!.events.length;
        n++;
      }
      const group = lane.waiting.splice(0, n);
      lane.running++;
      void runGroup(group).finally(() => {
        lane.running--;
        if (lane.running === 0 && lane.waiting.length === 0) lanes.delete(keyId);
        else drain(keyId);
      });
    }
  }

  async function runGroup(group: Waiting[]) {
    const actor: UsageActor = { kind: 'key', key: group[0]!.key };
    try {
      const results = await recordTogether(actor, group);
      group.forEach((w, n) => w.resolve(results[n]!));
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      await Promise.all(
        group.map((w) =>
          recordTogether(actor, [w]).then(
            ([result]) => w.resolve(result!),
            (alone: unknown) => w.reject(alone),
          ),
        ),
      );
    }
  }

  /**
   * Records one batch of usage events and answers each event's outcome in the batch's order.
   * A key's batch of at most COALESCE.smallBatch events may be recorded together with the
   * same key's other small batches (see the lanes above); a larger one, or the house's
   * import, is a statement of its own.
   */
  function record(actor: UsageActor, events: UsageEvent[], info: ClientInfo): Promise<UsageBatchResult> {
    if (actor.kind !== 'key' || events.length > COALESCE.smallBatch) {
      return recordTogether(actor, [{ events, info }]).then(([result]) => result!);
    }
    const key = actor.key;
    return new Promise((resolve, reject) => {
      let lane = lanes.get(key.id);
      if (!lane) lanes.set(key.id, (lane = { running: 0, waiting: [] }));
      lane.waiting.push({ key, events, info, resolve, reject });
      drain(key.id);
    });
  }

  return { record };
}
