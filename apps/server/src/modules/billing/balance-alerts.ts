import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { MESSAGES, type BalanceAlertKind } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { activeAdmins } from '../../lib/admins.ts';
import type { Mailer } from '../../lib/mail.ts';
import { startPollLoop } from '../../lib/poll-loop.ts';
import { ALERT_LINE_BATCH, measureAlertLines } from './alert-lines-check.ts';

const m = MESSAGES.balanceAlerts;
const s = MESSAGES.spend;
const a = MESSAGES.alertLines;

export interface BalanceAlertSenderOptions {
  db: Kysely<DB>;
  mailer: Mailer;
  logger: FastifyBaseLogger;
  /** The console's address, for the link to the ledger in each mail. */
  appUrl: string;
  /** How often pending alerts are looked for (default 5 s). */
  pollMs?: number;
  /** How often each percent-of-cap and runway alert line is measured (default 60 s). */
  linePollMs?: number;
}

/** The subject, the sentence and the link of an alert's mail to the admins of its organization (exported for its test). */
export function words(
  alert: { kind: BalanceAlertKind; name: string; balance: string; threshold: string; detail: Record<string, unknown> },
  appUrl: string,
): [string, string, string] {
  const ledger = `Credit ledger: ${appUrl}/credit-ledger`;
  const text = (key: string) => (typeof alert.detail[key] === 'string' ? (alert.detail[key] as string) : '');
  switch (alert.kind) {
    case 'low_balance':
      return [m.lowBalanceSubject(alert.name), m.lowBalance(alert.name, alert.balance, alert.threshold), ledger];
    case 'insufficient_credits':
      return [m.insufficientSubject(alert.name), m.insufficient(alert.name, alert.balance), ledger];
    case 'cap_warning':
    case 'cap_reached': {
      const scope = text('scope');
      const what =
        scope === 'key'
          ? `The API key "${text('name')}"`
          : scope === 'activation'
            ? `The agent "${text('name')}" of ${alert.name}`
            : `${text('name')} with the organizations below it`;
      const percent = alert.kind === 'cap_reached' ? 100 : 80;
      const subject = alert.kind === 'cap_reached' ? s.capReachedSubject(text('name')) : s.capWarningSubject(text('name'));
      // The cap's window (day, week or month) and its first day; alerts from before windows name the month only.
      const window = text('window') || 'month';
      const start = text('window_start') || text('month');
      return [
        subject,
        s.capAlert(what, percent, alert.balance, alert.threshold, text('month'), window, start),
        `Billing: ${appUrl}/settings`,
      ];
    }
    case 'alert_line': {
      const window = text('window') || null;
      return [
        a.crossedSubject(alert.name),
        a.crossed(alert.name, text('line_kind'), alert.threshold, alert.balance, window),
        `Alert lines: ${appUrl}/settings`,
      ];
    }
    case 'top_up_failed': {
      const why = text('reason') === 'monthly_max' ? s.topUpMonthlyMax(text('monthly_max')) : s.topUpParentShort(alert.balance);
      return [
        s.topUpFailedSubject(text('child_name')),
        s.topUpFailed(text('child_name'), alert.threshold, why),
        `Organization: ${appUrl}/orgs/${text('child_id')}/billing`,
      ];
    }
  }
}

/** Alerts taken in one transaction. */
const BATCH = 50;

/**
 * The background sender of balance alerts. A balance crossing below the threshold (the
 * database queues those) or usage refused for want of credits leaves a row in
 * `balance_alerts`; the sender takes pending rows with `for update skip locked`, so several
 * server processes share them and none takes a row another is sending, mails every active
 * admin of the organization (a low balance of an organization with no active admin, every
 * active admin of its parent), and marks the row mailed, all in one transaction: the mails are
 * queued (or stored in the outbox) exactly when the row is marked. Alerts are queued by the
 * change that commits them and mailed afterwards, so a mail that fails never fails that
 * change; the row stays pending for the next look. Looks every pollMs.
 */
export function createBalanceAlertSender({ db, mailer, logger, appUrl, pollMs = 5_000, linePollMs = 60_000 }: BalanceAlertSenderOptions) {
  /** Mails one batch of pending alerts; answers how many alerts were handled. */
  async function sendPending(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const { rows: alerts } = await sql<{
        id: string;
        organization_id: string;
        kind: BalanceAlertKind;
        balance: string;
        threshold: string;
        name: string;
        parent_id: string | null;
        parent_name: string | null;
        detail: Record<string, unknown>;
      }>`
        select a.id, a.organization_id, a.kind, a.balance::text as balance, a.threshold::text as threshold, a.detail, o.name,
          p.id as parent_id, p.name as parent_name
        from balance_alerts a
        join organizations o on o.id = a.organization_id
        left join organizations p on p.id = o.parent_org_id and p.deleted_at is null
        where a.mailed_at is null
        order by a.id
        limit ${BATCH}
        for update of a skip locked`.execute(trx);
      if (alerts.length === 0) return 0;
      const adminsOf = (ids: string[]) => activeAdmins(trx, ids);
      const admins = await adminsOf([...new Set(alerts.map((alert) => alert.organization_id))]);
      const hasAdmins = new Set(admins.map((row) => row.organization_id));
      // A low balance of an organization without an active admin goes to its parent's admins.
      const orphaned = alerts.filter((alert) => alert.kind === 'low_balance' && !hasAdmins.has(alert.organization_id) && alert.parent_id);
      const parentAdmins = await adminsOf([...new Set(orphaned.map((alert) => alert.parent_id!))]);
      for (const alert of alerts) {
        const [subject, line, link] = words(alert, appUrl);
        const text = `${line}\n\n${link}`;
        for (const admin of admins.filter((row) => row.organization_id === alert.organization_id)) {
          await mailer.send({ to: admin.email, subject, text }, trx);
        }
      }
      for (const alert of orphaned) {
        const subject = m.childLowBalanceSubject(alert.name);
        const text = `${m.childLowBalance(alert.name, alert.parent_name!, alert.balance, alert.threshold)}\n\nOrganization: ${appUrl}/orgs/${alert.organization_id}`;
        for (const admin of parentAdmins.filter((row) => row.organization_id === alert.parent_id)) {
          await mailer.send({ to: admin.email, subject, text }, trx);
        }
      }
      await trx
        .updateTable('balance_alerts')
        .set({ mailed_at: sql`now()` })
        .where(
          'id',
          'in',
          alerts.map((alert) => alert.id),
        )
        .execute();
      logger.info({ alerts: alerts.length }, 'balance alerts mailed');
      return alerts.length;
    });
  }

  const loop = startPollLoop({
    pollMs,
    logger,
    // The database is away, or a mail could not be stored: the alerts stay pending for the next look.
    what: 'balance alerts could not be sent',
    async pass(closed) {
      while (!closed() && (await sendPending()) === BATCH) {
        // a full batch: more may be waiting
      }
    },
  });

  // Percent-of-cap and runway lines are measured by their own loop (balance lines by the
  // balance's trigger); the alerts they queue are mailed by the loop above.
  const lines = startPollLoop({
    pollMs: linePollMs,
    logger,
    what: 'alert lines could not be measured',
    async pass(closed) {
      while (!closed() && (await measureAlertLines(db, { everyMs: linePollMs })) === ALERT_LINE_BATCH) {
        // a full batch: more lines may be due
      }
    },
  });

  return {
    sendPending,
    /** Measures the due percent-of-cap and runway lines once (tests; `everyMs` 0 measures every one). */
    measureLines: (everyMs = linePollMs) => measureAlertLines(db, { everyMs }),
    async close() {
      await Promise.all([loop.close(), lines.close()]);
    },
  };
}

export type BalanceAlertSender = ReturnType<typeof createBalanceAlertSender>;
