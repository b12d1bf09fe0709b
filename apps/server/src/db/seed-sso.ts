import type { Transaction } from 'kysely';
import type { OrgType } from '@console/domain';
import type { SecretSealer } from '../lib/sealer.ts';
import type { DB } from './schema.ts';

/**
 * The demo's single sign-on: Bluebird Group's provider is a local one (`npm run
 * sso:demo-provider`), its domain approved by the house's admin, and people the provider signs
 * in join at first sign-in. Both sides read these constants, so they always agree.
 */
export const DEMO_SSO = {
  organization: 'Bluebird Group',
  port: 4011,
  issuer: 'http://127.0.0.1:4011',
  clientId: 'console-demo',
  /** A demo's secret, printed by the seed and the provider alike; the database keeps it sealed. */
  clientSecret: 'console-demo-secret',
  domain: 'sso.demo.example.com',
  /** The provider's people: none is a member yet, so each joins at their first sign-in. */
  accounts: [
    { sub: 'ana', email: 'ana@sso.demo.example.com', name: 'Ana Ruiz' },
    { sub: 'lee', email: 'lee@sso.demo.example.com', name: 'Lee Chen' },
  ],
} as const;

export interface SeededSso {
  organization: string;
  issuer: string;
  domain: string;
  jitRole: string;
  accounts: string[];
}

/** Registers the provider, the approved domain and just-in-time members at the organization's user role. */
export async function seedSso(
  trx: Transaction<DB>,
  {
    organizations,
    sealer,
    houseAdminId,
  }: { organizations: { id: string; name: string; type: OrgType }[]; sealer: SecretSealer; houseAdminId: string | null },
): Promise<SeededSso> {
  const org = organizations.find((o) => o.name === DEMO_SSO.organization);
  if (!org) throw new Error(`The demo has no ${DEMO_SSO.organization}.`);
  const jitRole = `${org.type}_user`;
  await trx
    .insertInto('identity_providers')
    .values({
      organization_id: org.id,
      issuer: DEMO_SSO.issuer,
      client_id: DEMO_SSO.clientId,
      client_secret_sealed: sealer.seal(DEMO_SSO.clientSecret),
      jit_role: jitRole,
      updated_by: houseAdminId,
    })
    .execute();
  const now = new Date().toISOString();
  await trx
    .insertInto('identity_domains')
    .values({
      organization_id: org.id,
      domain: DEMO_SSO.domain,
      verification_token: 'demo',
      approved_at: now,
      approved_by: houseAdminId,
      created_by: houseAdminId,
    })
    .execute();
  return {
    organization: org.name,
    issuer: DEMO_SSO.issuer,
    domain: DEMO_SSO.domain,
    jitRole,
    accounts: DEMO_SSO.accounts.map((a) => a.email),
  };
}
