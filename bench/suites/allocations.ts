import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { hashPassword } from '../../apps/server/src/lib/secrets.ts';
import { withFreshPostgres } from '../lib/databases.ts';
import { HTTP_COLUMNS, call, measure, round, signIn } from '../lib/http.ts';
import { pgbenchRow, pgbenchScript, runPgbench } from '../lib/pgbench.ts';
import { BENCH_ADMIN, withServerOn, type BenchServer } from '../lib/server.ts';
import { generateTree, prepareSession, step, superAgencyAdmins, type TreeSpec } from '../lib/sql.ts';
import { withClient } from '../../support/postgres.ts';
import type { Row, Suite } from '../lib/types.ts';
import { reconcileOn } from './ledger.ts';

const run = promisify(execFile);

/** 50 super agencies with 20 agencies each. */
const TREE: TreeSpec = { superAgencies: 50, agencies: 1_000, tenants: 0 };
const CONNECTIONS = 16;
export const PGBENCH = { scale: 10, clients: 16, threads: 2, seconds: 20 };
/** Given to each super agency before measuring: at 1.00 an allocation, far more than a run can spend. */
const SA_FUNDS = '10000000.00';
const SA_PASSWORD = 'bench super agency admin password';

/**
 * The transfer an allocation makes, as a plain SQL script on the real schema (pgbench runs
 * it): the two balance rows locked in id order, the parent's balance down and the child's
 * up, and the two ledger entries of one transaction group with their balances after. No
 * authentication, idempotency key, scope check or audit row: the ceiling for the writes.
 * `:pairs` names the table of sender and receiver pairs to pick from.
 */
const transferScript = (pairs: string, count: number) => `
\\set n random(0, ${count - 1})
select parent, child from ${pairs} where n = :n \\gset
begin;
select 1 from organization_billing_settings where organization_id in (':parent', ':child') order by organization_id for update;
update organization_billing_settings set credit_balance = credit_balance - 1.00, updated_at = now() where organization_id = ':parent' returning credit_balance as pb \\gset
update organization_billing_settings set credit_balance = credit_balance + 1.00, updated_at = now() where organization_id = ':child' returning credit_balance as cb \\gset
insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, metadata)
select e.organization_id, e.amount, e.entry_type, g.id, e.balance_after, '{"note": "bench transfer script"}'
from (select gen_random_uuid() as id) g,
     (values (':parent'::uuid, -1.00, 'allocation_sent', :pb::numeric), (':child'::uuid, 1.00, 'allocation_received', :cb::numeric))
       as e (organization_id, amount, entry_type, balance_after);
commit;
`;

export const allocations: Suite = {
  name: 'allocations',
  title: 'Credit allocations against the transfer SQL script',
  about:
    '`POST /api/credits/allocations` at 16 connections on PostgreSQL (PostgreSQL only), with 1 and with 2 server processes ' +
    '(node:cluster, as `CONSOLE_WORKERS=2`), beside its ceiling measured on the same database in the same run: the ' +
    'transfer it makes as a plain SQL script on the real schema run by `pgbench` at 16 clients (pick a pair; begin; lock ' +
    'the two balance rows in id order; update both; insert the two ledger entries of one transaction group with their ' +
    'balances after; commit; no authentication, idempotency key, scope check or audit row). Every request is a distinct ' +
    'allocation of 1.00 with its own Idempotency-Key, signed in as the admin of the sending super agency: "many pairs" ' +
    'rotates over 50 super agencies, each allocating to its own 20 agencies (1,000 pairs); "one hot parent" is one super ' +
    "agency allocating to its 20 agencies, so every request waits for the lock on the parent's balance; the script picks " +
    "from the same pairs. Funding goes through the API first (the house admin's adjustment, then an allocation to each " +
    "super agency). **÷ SQL script** is allocations per second divided by the script's transfers per second for the same " +
    "pairs (the aim is at least 0.5 for many pairs and 0.3 for one hot parent). The script's p50/p99 come from its " +
    "per-transaction log. The API makes each allocation in two round trips: the caller's lookup, then one prepared " +
    'statement calling the database function `credits_allocate` (idempotency key, scope check, locks in id order, both ' +
    'balances, both entries, the audit row and the recorded answer, in the one transaction of that statement). ' +
    "The server's `reconcile(db)` runs after all the runs (the script's transfers included).",
  columns: [
    ...HTTP_COLUMNS.slice(0, 2),
    { key: 'processes', label: 'processes', format: 'int' },
    ...HTTP_COLUMNS.slice(2),
    { key: 'ratio', label: '÷ SQL script', format: 'fixed2' },
  ],
  async run(context) {
    if (!context.databaseUrl) {
      return { status: 'skipped', reason: 'needs PostgreSQL (set DATABASE_URL): the comparison is with pgbench on the same server' };
    }
    const which = await run('which', ['pgbench']).catch(() => null);
    if (!which) return { status: 'skipped', reason: 'pgbench is not installed (Debian: apt-get install postgresql-client)' };

    return withFreshPostgres(context.databaseUrl, async (url) => {
      const times: Record<string, number> = {};
      const durationSeconds = context.durationSeconds ?? 20;
      const runId = Date.now().toString(36);
      type Parent = { orgId: string; token: string; children: string[] };
      let parents: Parent[] = [];
      let database = '';
      const shapes = [
        {
          key: 'pairs',
          name: () => `allocations, many pairs (${parents.length} parents × 20 children)`,
          pick: (n: number) => {
            const parent = parents[n % parents.length]!;
            return { parent, child: parent.children[Math.floor(n / parents.length) % parent.children.length]! };
          },
        },
        {
          key: 'hot',
          name: () => 'allocations, one hot parent (20 children)',
          pick: (n: number) => {
            const parent = parents[0]!;
            return { parent, child: parent.children[n % parent.children.length]! };
          },
        },
      ];
      const allocate = (server: BenchServer) => async () => {
        const measured: Row[] = [];
        for (const shape of shapes) {
          context.log(`${shape.name()}, ${server.processes} process(es)`);
          const row = await measure(server, {
            name: shape.name(),
            method: 'POST',
            path: '/api/credits/allocations',
            connections: CONNECTIONS,
            durationSeconds,
            rotate: (n) => {
              const { parent, child } = shape.pick(n);
              return {
                headers: {
                  authorization: `Bearer ${parent.token}`,
                  'idempotency-key': `bench-${runId}-${server.processes}-${shape.key}-${n}`,
                },
                body: { from_org_id: parent.orgId, to_org_id: child, amount: '1.00', notes: `bench ${n}` },
              };
            },
          });
          measured.push({ ...row, processes: server.processes });
        }
        return measured;
      };

      const one = await withServerOn(url, async (server) => {
        database = server.database;
        const passwordHash = await hashPassword(SA_PASSWORD);
        const setup = await withClient(url, async (client) => {
          await prepareSession(client);
          const house = await generateTree(client, TREE, times, context.log);
          const admins = await superAgencyAdmins(client, TREE.superAgencies, passwordHash);
          const { rows: agencies } = await client.query<{ id: string; parent: string }>(
            `select id, parent_org_id as parent from organizations where org_type = 'agency' order by name, id`,
          );
          await client.query('vacuum analyze organizations, organization_billing_settings, users');
          return { house, admins, agencies };
        });
        const houseToken = await signIn(server, BENCH_ADMIN);
        await step(times, `funding through the API (1 adjustment, ${TREE.superAgencies} allocations)`, context.log, async () => {
          const total = (Number(SA_FUNDS) * TREE.superAgencies).toFixed(2);
          await call(server, 'POST', '/api/credits/adjustments', houseToken, {
            direction: 'increase',
            amount: total,
            reason: 'bench funding',
          });
          for (const admin of setup.admins) {
            await call(server, 'POST', '/api/credits/allocations', houseToken, {
              from_org_id: setup.house.id,
              to_org_id: admin.orgId,
              amount: SA_FUNDS,
              notes: 'bench funding',
            });
          }
        });
        parents = await step(times, `${TREE.superAgencies} sign-ins`, context.log, () =>
          Promise.all(
            setup.admins.map(async (admin) => ({
              orgId: admin.orgId,
              token: await signIn(server, { email: admin.email, password: SA_PASSWORD }),
              children: setup.agencies.filter((a) => a.parent === admin.orgId).map((a) => a.id),
            })),
          ),
        );
        return allocate(server)();
      });
      const two = await withServerOn(url, (server) => allocate(server)(), { processes: 2 });

      // The script picks from the very pairs the API was given.
      await withClient(url, async (client) => {
        for (const shape of shapes) {
          const pairs = shape.key === 'pairs' ? 1_000 : 20;
          await client.query(`create table bench_${shape.key} (n int primary key, parent uuid not null, child uuid not null)`);
          const values = Array.from({ length: pairs }, (_, n) => {
            const { parent, child } = shape.pick(n);
            return `(${n}, '${parent.orgId}', '${child}')`;
          });
          await client.query(`insert into bench_${shape.key} (n, parent, child) values ${values.join(', ')}`);
        }
      });
      const scripts: Record<string, Awaited<ReturnType<typeof pgbenchScript>>> = {};
      for (const shape of shapes) {
        context.log(`transfer SQL script, ${shape.key}, pgbench ${CONNECTIONS} clients ${durationSeconds} s`);
        scripts[shape.key] = await pgbenchScript(url, {
          name: `transfer SQL script (pgbench, ceiling), ${shape.key === 'pairs' ? 'many pairs' : 'one hot parent'}`,
          script: transferScript(`bench_${shape.key}`, shape.key === 'pairs' ? 1_000 : 20),
          clients: CONNECTIONS,
          seconds: durationSeconds,
        });
      }

      const rows: Row[] = [];
      for (const [s, shape] of shapes.entries()) {
        const script = scripts[shape.key]!;
        rows.push({ ...script.row, database, processes: null, ratio: 1 });
        for (const row of [one[s]!, two[s]!]) rows.push({ ...row, ratio: round(Number(row.rps) / script.tps, 2) });
      }

      const books = await step(times, 'reconciliation (reconcile(db))', context.log, () => reconcileOn(url));
      const counts = await withClient(url, async (client) => {
        const { rows: r } = await client.query<{ allocations: number; audit: number }>(
          `select (select count(*)::int from credit_ledger_entries where entry_type = 'allocation_sent') as allocations,
                  (select count(*)::int from audit_log where action = 'credits.allocate') as audit`,
        );
        return r[0]!;
      });
      if (!books.ok) throw new Error(`reconciliation failed after the runs: ${JSON.stringify(books).slice(0, 500)}`);
      return {
        status: 'ok',
        rows,
        notes: [
          ...shapes.map((shape) => {
            const script = scripts[shape.key]!;
            return `Transfer SQL script, ${shape.key === 'pairs' ? 'many pairs' : 'one hot parent'}: ${script.tps} transfers/s, ${script.failed} failed transactions, average latency ${script.averageMs} ms.`;
          }),
          `Reconciliation after the runs: ${books.ok ? 'passed' : 'FAILED'} (${books.organizations_checked.toLocaleString('en-US')} organizations, ` +
            `${books.balance_mismatches.length} balance mismatches, ${books.unbalanced_groups.length} unbalanced transaction groups); ` +
            `${counts.allocations.toLocaleString('en-US')} allocations in the ledger (probes, warm-ups, funding and the script's transfers included), ` +
            `${counts.audit.toLocaleString('en-US')} audit rows for the API's.`,
          `Setup: ${Object.entries(times)
            .map(([k, v]) => `${k} ${v} s`)
            .join(', ')}.`,
        ],
        details: {
          tree: TREE,
          scripts: Object.fromEntries(
            Object.entries(scripts).map(([k, v]) => [k, { tps: v.tps, failed: v.failed, averageMs: v.averageMs }]),
          ),
          reconciliation: { ok: books.ok, organizations_checked: books.organizations_checked },
          ledgerAllocations: counts.allocations,
          setupSeconds: times,
        },
      };
    });
  },
};

/** pgbench -i, then a TPC-B run with a per-transaction log for the latency percentiles. */
export async function pgbench(url: string, log: (m: string) => void) {
  const initStarted = performance.now();
  await run('pgbench', ['-i', '-q', '-s', String(PGBENCH.scale), url], { maxBuffer: 16 << 20 });
  const initSeconds = round((performance.now() - initStarted) / 1000, 1);
  log(`  initialized in ${initSeconds} s; running ${PGBENCH.seconds} s`);
  const figures = await runPgbench(url, ['-c', String(PGBENCH.clients), '-j', String(PGBENCH.threads), '-T', String(PGBENCH.seconds)]);
  const row: Row = {
    ...pgbenchRow(`pgbench TPC-B, scale ${PGBENCH.scale} (reference)`, PGBENCH.clients, PGBENCH.seconds, figures),
    ratio: 1,
  };
  const { tps, transactions, failed, averageMs, stdout } = figures;
  return { row, tps: round(tps, 1), transactions, failed, averageMs, initSeconds, output: stdout };
}
