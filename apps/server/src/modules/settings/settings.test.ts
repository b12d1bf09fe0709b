import { describe, expect, it } from 'vitest';
import { CONTROL_TEXT, MESSAGES, UNSTORABLE_TEXT } from '@console/domain';
import { useWorld } from '../../test/harness.ts';

const w = useWorld();
const g = MESSAGES.globalSettings;

const unset = { documentation_url: null, billing_portal_url: null, community_channels: [] };
const full = {
  documentation_url: 'https://docs.example.test/console',
  billing_portal_url: 'https://billing.example.test/portal?x=1',
  community_channels: [
    { name: 'Forum', url: 'https://forum.example.test' },
    { name: 'Chat', url: 'http://chat.example.test/invite' },
  ],
};

const put = async (who: string, body: unknown) => w.t.request('PUT', '/api/settings', body, { token: await w.as(who) });

describe('global settings', () => {
  it('start unset, readable by every signed-in person and, for the documentation link, by anyone', async () => {
    for (const who of ['H.user', 'T1.user', 'A1.support']) {
      const read = await w.t.request('GET', '/api/settings', undefined, { token: await w.as(who) });
      expect(read.status, who).toBe(200);
      expect(read.body).toEqual({
        ...unset,
        api_key_rate_limit_ceiling: 6000,
        step_up_threshold: '1000.00',
        updated_at: null,
        updated_by_name: null,
      });
    }
    expect((await w.t.request('GET', '/api/settings')).status).toBe(401);
    const anonymous = await w.t.request('GET', '/api/settings/public');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ documentation_url: null });
  });

  it('are replaced by a house admin only, and read back as saved by everyone', async () => {
    for (const who of ['H.manager', 'H.user', 'H.support', 'SA1.admin', 'A1.admin', 'T1.admin']) {
      const refused = await put(who, full);
      expect(refused.status, who).toBe(403);
    }
    expect((await w.t.request('GET', '/api/settings/public')).body.documentation_url).toBeNull();

    const saved = await put('H.admin', { ...full, documentation_url: '  https://docs.example.test/console  ' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject(full);
    expect(saved.body.updated_by_name).toBeTruthy();
    expect(Date.now() - new Date(saved.body.updated_at).getTime()).toBeLessThan(60_000);

    const read = await w.t.request('GET', '/api/settings', undefined, { token: await w.as('T1.user') });
    expect(read.body).toEqual(saved.body);
    expect((await w.t.request('GET', '/api/settings/public')).body).toEqual({ documentation_url: full.documentation_url });

    const audit = await w.t.database.db
      .selectFrom('audit_log')
      .select(['action', 'organization_id'])
      .where('action', '=', 'settings.update')
      .execute();
    expect(audit).toEqual([{ action: 'settings.update', organization_id: w.world.orgs.H.id }]);

    // Unset again: links removed, one channel left.
    const cleared = await put('H.admin', {
      documentation_url: null,
      billing_portal_url: null,
      community_channels: [full.community_channels[1]],
    });
    expect(cleared.body).toMatchObject({
      documentation_url: null,
      billing_portal_url: null,
      community_channels: [full.community_channels[1]],
    });
  });

  it('refuse what is not an http(s) link, with the field named, and change nothing', async () => {
    await put('H.admin', full);
    const cases: [unknown, string, string][] = [
      [{ ...full, documentation_url: 'javascript:alert(1)' }, 'documentation_url', g.invalidUrl],
      [{ ...full, documentation_url: 'docs.example.test' }, 'documentation_url', g.invalidUrl],
      [{ ...full, billing_portal_url: 'ftp://billing.example.test' }, 'billing_portal_url', g.invalidUrl],
      [{ ...full, billing_portal_url: `https://b.example.test/${'x'.repeat(2048)}` }, 'billing_portal_url', g.urlTooLong],
      [{ ...full, community_channels: [{ name: 'Chat', url: 'data:text/html,hi' }] }, 'community_channels.0.url', g.invalidUrl],
      [
        { ...full, community_channels: [{ name: ' ', url: 'https://chat.example.test' }] },
        'community_channels.0.name',
        g.channelNameRequired,
      ],
      [{ ...full, community_channels: [...full.community_channels, full.community_channels[0]] }, 'community_channels', g.tooManyChannels],
      // PostgreSQL refuses NUL in text: refused as input, never a 500 (found by the hostile-input suite).
      [
        { ...full, community_channels: [{ name: 'a\u0000b', url: 'https://chat.example.test' }] },
        'community_channels.0.name',
        UNSTORABLE_TEXT,
      ],
      [
        { ...full, community_channels: [{ name: 'Chat\nline', url: 'https://chat.example.test' }] },
        'community_channels.0.name',
        CONTROL_TEXT,
      ],
      [{ ...full, documentation_url: 'https://docs.example.test/\u0000' }, 'documentation_url', UNSTORABLE_TEXT],
      [{ ...full, documentation_url: 'https://docs.example.test/a\tb' }, 'documentation_url', CONTROL_TEXT],
    ];
    for (const [body, field, message] of cases) {
      const refused = await put('H.admin', body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.body.error.fields?.[field], field).toBe(message);
    }
    const read = await w.t.request('GET', '/api/settings', undefined, { token: await w.as('H.admin') });
    expect(read.body).toMatchObject(full);
  });
});
