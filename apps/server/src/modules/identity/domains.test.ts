import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES, verificationRecordName, type ActivityAction, type IdentityDomain } from '@console/domain';
import { startDnsServer } from '../../test/dns-server.ts';
import { useWorld } from '../../test/harness.ts';

// The console's resolver asks a real DNS server on this machine, whose TXT records the tests set.
const dns = await startDnsServer();
afterAll(() => dns.close());
const w = useWorld({ dnsServers: [dns.address] });
const m = MESSAGES.identity;

const base = (org: string) => `/api/organizations/${org}/identity`;
const call = async (who: string, method: string, path: string, body?: unknown) =>
  w.t.request(method, path, body, { token: await w.as(who) });
const claim = (who: string, org: string, domain: string) => call(who, 'POST', `${base(org)}/domains`, { domain });
const claimOf = (view: { domains: IdentityDomain[] }, domain: string) => view.domains.find((d) => d.domain === domain)!;
const audits = (action: ActivityAction) =>
  w.t.database.db.selectFrom('audit_log').select(['organization_id', 'actor_user_id', 'details']).where('action', '=', action).execute();

describe('domain claims: a TXT record on a real DNS server puts a claim in effect', () => {
  it('gives the record to publish, refuses until it is there, then verifies and audits', async () => {
    const claimed = await claim('T1.admin', w.id('T1'), 'Clinic-One.example.');
    expect(claimed.status).toBe(201);
    const pending = claimOf(claimed.body, 'clinic-one.example');
    expect(pending).toMatchObject({ state: 'pending', record_name: '_console-verification.clinic-one.example', verified_at: null });
    expect(pending.record_value).toMatch(/^console-verification=[A-Za-z0-9_-]{24}$/);

    // Nothing published yet: refused with the name looked at, and the finding kept on the claim.
    const early = await call('T1.admin', 'POST', `${base(w.id('T1'))}/domains/${pending.id}/verify`);
    expect(early.status).toBe(422);
    expect(early.body.error.message).toBe(m.domainNotVerified(verificationRecordName('clinic-one.example')));
    const after = (await call('T1.admin', 'GET', base(w.id('T1')))).body;
    expect(claimOf(after, 'clinic-one.example')).toMatchObject({ state: 'pending', check_error: early.body.error.message });

    // A wrong value, then the right one among others (a domain often holds several TXT records).
    dns.records.set(pending.record_name, ['console-verification=not-this-one']);
    expect((await call('T1.admin', 'POST', `${base(w.id('T1'))}/domains/${pending.id}/verify`)).status).toBe(422);
    dns.records.set(pending.record_name, ['v=spf1 -all', pending.record_value]);
    const verified = await call('T1.admin', 'POST', `${base(w.id('T1'))}/domains/${pending.id}/verify`);
    expect(verified.status).toBe(200);
    expect(claimOf(verified.body, 'clinic-one.example')).toMatchObject({ state: 'verified', check_error: null });
    expect((await audits('identity.domain_verified')).map((a) => a.details)).toEqual([
      { domain: 'clinic-one.example', record: pending.record_name },
    ]);
  });

  it('lets one claim per domain be in effect: a second organization is refused once the first verified', async () => {
    const first = claimOf((await claim('A1.admin', w.id('A1'), 'shared.example')).body, 'shared.example');
    // A pending claim blocks nobody: a squatter cannot stop the domain's owner.
    const second = await claim('SA1.admin', w.id('SA1'), 'shared.example');
    expect(second.status).toBe(201);
    dns.records.set(first.record_name, [first.record_value]);
    expect((await call('A1.admin', 'POST', `${base(w.id('A1'))}/domains/${first.id}/verify`)).status).toBe(200);
    // The other organization's pending claim can no longer take effect, by DNS or by hand.
    const other = claimOf(second.body, 'shared.example');
    dns.records.set(other.record_name, [first.record_value, other.record_value]);
    const late = await call('SA1.admin', 'POST', `${base(w.id('SA1'))}/domains/${other.id}/verify`);
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe(m.domainTaken);
    expect((await call('H.admin', 'POST', `${base(w.id('SA1'))}/domains/${other.id}/approve`)).status).toBe(409);
    const third = await claim('H.admin', w.id('H'), 'shared.example');
    expect(third.status).toBe(409);
    expect(third.body.error.message).toBe(m.domainTaken);
  });

  it('is approved by hand by a house admin only, audited as theirs', async () => {
    const pending = claimOf((await claim('A1.admin', w.id('A1'), 'by-hand.example')).body, 'by-hand.example');
    for (const who of ['A1.admin', 'SA1.admin']) {
      const refused = await call(who, 'POST', `${base(w.id('A1'))}/domains/${pending.id}/approve`);
      expect(refused.status, who).toBe(403);
      expect(refused.body.error.message).toBe(m.onlyHouseApproves);
    }
    expect((await call('H.manager', 'POST', `${base(w.id('A1'))}/domains/${pending.id}/approve`)).status).toBe(403);
    const approved = await call('H.admin', 'POST', `${base(w.id('A1'))}/domains/${pending.id}/approve`);
    expect(approved.status).toBe(200);
    const view = (await call('A1.admin', 'GET', base(w.id('A1')))).body;
    expect(claimOf(view, 'by-hand.example')).toMatchObject({ state: 'approved', approved_by: w.world.users['H.admin'] });
    const [audit] = await audits('identity.domain_approved');
    expect(audit).toMatchObject({ organization_id: w.id('A1'), details: { domain: 'by-hand.example' } });
    expect(audit!.actor_user_id).not.toBeNull();
    // Approving again: already in effect.
    expect((await call('H.admin', 'POST', `${base(w.id('A1'))}/domains/${pending.id}/approve`)).status).toBe(409);
  });

  it("refuses a caller's mistakes with clear errors and changes nothing", async () => {
    const before = await w.t.database.db.selectFrom('identity_domains').select('id').execute();
    expect((await claim('T1.admin', w.id('T1'), 'not a domain')).status).toBe(400);
    expect((await claim('T1.admin', w.id('T1'), 'localhost')).status).toBe(400);
    expect((await claim('T1.admin', w.id('T1'), '10.0.0.1')).status).toBe(400);
    const again = await claim('T1.admin', w.id('T1'), 'clinic-one.example');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(m.domainClaimedAlready);
    // Only the organization's own admins: a parent's admin 403, a manager 403, outside the subtree 404.
    expect((await claim('A1.admin', w.id('T1'), 'parent.example')).status).toBe(403);
    expect((await claim('T1.manager', w.id('T1'), 'manager.example')).status).toBe(403);
    expect((await claim('T1.admin', w.id('T2'), 'beside.example')).status).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('T1.admin', 'POST', `${base(w.id('T1'))}/domains/${unknown}/verify`)).status).toBe(404);
    expect(await w.t.database.db.selectFrom('identity_domains').select('id').execute()).toEqual(before);
  });

  it('withdraws a claim', async () => {
    const pending = claimOf((await claim('T1.admin', w.id('T1'), 'withdrawn.example')).body, 'withdrawn.example');
    const removed = await call('T1.admin', 'DELETE', `${base(w.id('T1'))}/domains/${pending.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.domains.map((d: { domain: string }) => d.domain)).not.toContain('withdrawn.example');
    expect((await audits('identity.domain_removed')).map((a) => a.details)).toEqual([{ domain: 'withdrawn.example' }]);
  });
});
