import type { Transaction } from 'kysely';
import { generateSecret } from 'otplib';
import type { OrgType } from '@console/domain';
import type { SecretSealer } from '../lib/sealer.ts';
import type { DB } from './schema.ts';

/**
 * The demo admin with an authenticator app (a second factor): not one of the people of every
 * role, who sign in with the password alone, but an admin of its own in the second super agency.
 */
export const DEMO_MFA_ADMIN_EMAIL = 'mfa.admin@demo.example.com';
const DEMO_MFA_ADMIN_ORG = 'Bluebird Group';

export interface SeededMfaAdmin {
  email: string;
  organization: string;
  /** The app's secret (base32), for the seed to print: the database keeps it sealed. */
  totpSecret: string;
}

/** Adds the admin with the demo's password and a confirmed authenticator app, sealed as the server seals it. */
export async function seedMfaAdmin(
  trx: Transaction<DB>,
  {
    organizations,
    passwordHash,
    sealer,
    now,
  }: { organizations: { id: string; name: string; type: OrgType }[]; passwordHash: string; sealer: SecretSealer; now: Date },
): Promise<SeededMfaAdmin> {
  const org = organizations.find((o) => o.name === DEMO_MFA_ADMIN_ORG);
  if (!org) throw new Error(`The demo has no ${DEMO_MFA_ADMIN_ORG}.`);
  const admin = await trx
    .insertInto('users')
    .values({
      email: DEMO_MFA_ADMIN_EMAIL,
      password_hash: passwordHash,
      first_name: 'Demo admin',
      last_name: 'with an authenticator app',
      role: `${org.type}_admin`,
      organization_id: org.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const totpSecret = generateSecret();
  await trx
    .insertInto('totp_factors')
    .values({ user_id: admin.id, secret_sealed: sealer.seal(totpSecret), confirmed_at: now })
    .execute();
  return { email: DEMO_MFA_ADMIN_EMAIL, organization: org.name, totpSecret };
}
