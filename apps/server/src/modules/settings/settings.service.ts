import type { Kysely } from 'kysely';
import {
  API_KEY_LIFECYCLE,
  MFA,
  personName,
  type GlobalSettings,
  type PublicSettings,
  type UpdateGlobalSettingsInput,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { requireWritable } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';

function settingsQuery(db: Executor) {
  return db
    .selectFrom('global_settings as s')
    .leftJoin('users as u', 'u.id', 's.updated_by')
    .select([
      's.documentation_url',
      's.billing_portal_url',
      's.community_1_name',
      's.community_1_url',
      's.community_2_name',
      's.community_2_url',
      's.api_key_rate_limit_ceiling',
      's.step_up_threshold',
      's.updated_at',
      'u.first_name',
      'u.last_name',
      'u.email',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof settingsQuery>['executeTakeFirstOrThrow']>>;

function toSettings(row: Row | undefined): GlobalSettings {
  if (!row)
    return {
      documentation_url: null,
      billing_portal_url: null,
      community_channels: [],
      api_key_rate_limit_ceiling: API_KEY_LIFECYCLE.defaultRateLimitCeiling,
      step_up_threshold: MFA.stepUpDefaultThreshold,
      updated_at: null,
      updated_by_name: null,
    };
  const channels = [
    [row.community_1_name, row.community_1_url],
    [row.community_2_name, row.community_2_url],
  ].flatMap(([name, url]) => (name && url ? [{ name, url }] : []));
  return {
    documentation_url: row.documentation_url,
    billing_portal_url: row.billing_portal_url,
    community_channels: channels,
    api_key_rate_limit_ceiling: row.api_key_rate_limit_ceiling,
    step_up_threshold: row.step_up_threshold,
    updated_at: row.updated_at,
    updated_by_name: row.email ? personName({ first_name: row.first_name, last_name: row.last_name, email: row.email }) : null,
  };
}

/**
 * The one row of links the Welcome and Settings pages show, and the ceiling on an API key's
 * own requests-per-minute limit; the house admins replace it.
 */
export function createSettingsService({ db }: { db: Kysely<DB> }) {
  return {
    async get(): Promise<GlobalSettings> {
      return toSettings(await settingsQuery(db).executeTakeFirst());
    },

    async getPublic(): Promise<PublicSettings> {
      const row = await db.selectFrom('global_settings').select('documentation_url').executeTakeFirst();
      return { documentation_url: row?.documentation_url ?? null };
    },

    /** The permission is checked by the route; a frozen house changes nothing. */
    async update(caller: Caller, input: UpdateGlobalSettingsInput, info: ClientInfo): Promise<GlobalSettings> {
      requireWritable(caller);
      const [first, second] = input.community_channels;
      const values = {
        documentation_url: input.documentation_url,
        billing_portal_url: input.billing_portal_url,
        community_1_name: first?.name ?? null,
        community_1_url: first?.url ?? null,
        community_2_name: second?.name ?? null,
        community_2_url: second?.url ?? null,
        // Left out, the ceiling stays as it is.
        ...(input.api_key_rate_limit_ceiling !== undefined && { api_key_rate_limit_ceiling: input.api_key_rate_limit_ceiling }),
        ...(input.step_up_threshold !== undefined && { step_up_threshold: String(input.step_up_threshold) }),
      };
      return db.transaction().execute(async (trx) => {
        // The row exists from the migration on; the upsert keeps a database that lost it working.
        await trx
          .insertInto('global_settings')
          .values({ id: true, ...values, updated_at: new Date(), updated_by: caller.userId })
          .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, updated_at: new Date(), updated_by: caller.userId }))
          .execute();
        await auditAction(trx, caller, info, {
          organizationId: caller.organization.id,
          action: 'settings.update',
          targetType: 'settings',
          targetId: null,
          details: values,
        });
        return toSettings(await settingsQuery(trx).executeTakeFirst());
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
