import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.ts';
import {
  WEBHOOKS,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_ROW_TYPES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  createWebhookEndpointSchema,
  redeliverFailedSchema,
  rotateWebhookSecretSchema,
  updateWebhookEndpointSchema,
  webhookPayloadSchema,
} from './schemas/webhooks.ts';

const w = MESSAGES.webhooks;
const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('webhook endpoint input', () => {
  const base = { url: 'https://hooks.example.com/in', event_types: ['balance.low'] };

  it('takes an http(s) URL, trimmed, with defaults for the rest', () => {
    expect(createWebhookEndpointSchema.parse({ ...base, url: '  https://hooks.example.com/in ' })).toEqual({
      url: 'https://hooks.example.com/in',
      description: '',
      event_types: ['balance.low'],
      include_subtree: false,
      enabled: true,
    });
    expect(createWebhookEndpointSchema.safeParse({ ...base, url: 'http://127.0.0.1:4400/webhooks' }).success).toBe(true);
  });

  it.each([
    ['', w.urlRequired],
    ['hooks', w.urlInvalid],
    ['ftp://example.com/x', w.urlInvalid],
    ['javascript:alert(1)', w.urlInvalid],
    [`https://example.com/${'a'.repeat(WEBHOOKS.urlMaxLength)}`, w.urlTooLong(WEBHOOKS.urlMaxLength)],
    ['https://user:secret@example.com/x', w.urlCredentials],
    ['https://user@example.com/x', w.urlCredentials],
  ])('refuses the URL %j with its message', (url, message) => {
    expect(issue(createWebhookEndpointSchema.safeParse({ ...base, url }))).toBe(message);
  });

  it('refuses no events, an unknown event, the test event, and one chosen twice', () => {
    expect(issue(createWebhookEndpointSchema.safeParse({ ...base, event_types: [] }))).toBe(w.chooseEvents);
    expect(createWebhookEndpointSchema.safeParse({ ...base, event_types: ['balance.nope'] }).success).toBe(false);
    expect(createWebhookEndpointSchema.safeParse({ ...base, event_types: [WEBHOOK_TEST_EVENT] }).success).toBe(false);
    expect(issue(createWebhookEndpointSchema.safeParse({ ...base, event_types: ['balance.low', 'balance.low'] }))).toBe(w.duplicateEvents);
    expect(createWebhookEndpointSchema.safeParse({ ...base, event_types: [...WEBHOOK_EVENT_TYPES] }).success).toBe(true);
  });

  it('holds the description to one line of at most 200 characters', () => {
    expect(createWebhookEndpointSchema.parse({ ...base, description: ' ops ' }).description).toBe('ops');
    expect(issue(createWebhookEndpointSchema.safeParse({ ...base, description: 'x'.repeat(WEBHOOKS.descriptionMaxLength + 1) }))).toBe(
      w.descriptionTooLong(WEBHOOKS.descriptionMaxLength),
    );
    expect(createWebhookEndpointSchema.safeParse({ ...base, description: 'x'.repeat(WEBHOOKS.descriptionMaxLength) }).success).toBe(true);
    expect(createWebhookEndpointSchema.safeParse({ ...base, description: 'two\nlines' }).success).toBe(false);
  });

  it('edits only what is given, with the same rules', () => {
    expect(updateWebhookEndpointSchema.parse({})).toEqual({});
    expect(updateWebhookEndpointSchema.parse({ enabled: false })).toEqual({ enabled: false });
    expect(issue(updateWebhookEndpointSchema.safeParse({ url: 'hooks' }))).toBe(w.urlInvalid);
    expect(issue(updateWebhookEndpointSchema.safeParse({ event_types: [] }))).toBe(w.chooseEvents);
  });

  it('rotates with a grace of 0 to 72 hours, 24 by default', () => {
    expect(rotateWebhookSecretSchema.parse({})).toEqual({ grace_hours: WEBHOOKS.defaultRotationGraceHours });
    expect(rotateWebhookSecretSchema.parse({ grace_hours: 0 })).toEqual({ grace_hours: 0 });
    expect(rotateWebhookSecretSchema.safeParse({ grace_hours: WEBHOOKS.maxRotationGraceHours }).success).toBe(true);
    expect(rotateWebhookSecretSchema.safeParse({ grace_hours: WEBHOOKS.maxRotationGraceHours + 1 }).success).toBe(false);
    expect(rotateWebhookSecretSchema.safeParse({ grace_hours: -1 }).success).toBe(false);
    expect(rotateWebhookSecretSchema.safeParse({ grace_hours: 1.5 }).success).toBe(false);
  });

  it('redelivers since a date and time with its offset', () => {
    expect(redeliverFailedSchema.safeParse({ since: '2026-11-27T09:00:00Z' }).success).toBe(true);
    expect(redeliverFailedSchema.safeParse({ since: '2026-11-27T09:00:00+01:00' }).success).toBe(true);
    expect(issue(redeliverFailedSchema.safeParse({ since: 'yesterday' }))).toBe(w.sinceInvalid);
  });
});

describe('webhook events', () => {
  it('have a documented data schema for every type a row may hold, the test event included', () => {
    expect(Object.keys(WEBHOOK_EVENT_DATA).sort()).toEqual([...WEBHOOK_EVENT_ROW_TYPES].sort());
    expect(WEBHOOK_EVENT_ROW_TYPES).toContain(WEBHOOK_TEST_EVENT);
    expect(WEBHOOK_EVENT_TYPES).not.toContain(WEBHOOK_TEST_EVENT);
  });

  it('describe the body a receiver gets', () => {
    const body = {
      id: '00000000-0000-4000-8000-000000000001',
      type: 'balance.low',
      timestamp: '2026-11-27T09:00:00.000Z',
      organization: {
        id: '00000000-0000-4000-8000-000000000002',
        name: 'Acme Dental',
        org_type: 'tenant',
        path: [{ id: '00000000-0000-4000-8000-000000000002', name: 'Acme Dental' }],
      },
      data: { balance: '90.00', threshold: '100.00' },
    };
    expect(webhookPayloadSchema('balance.low').safeParse(body).success).toBe(true);
    expect(webhookPayloadSchema('balance.low').safeParse({ ...body, type: 'balance.recovered' }).success).toBe(false);
    expect(webhookPayloadSchema('balance.low').safeParse({ ...body, data: { balance: '90' } }).success).toBe(false);
  });
});
