import { describe, expect, it } from 'vitest';
import { GRANT_MESSAGES } from './grant-messages.ts';
import { compareGrants, drawnBeforeOpen, grantTermsSchema, hasGrantTerms, type GrantOrderFacts } from './schemas/grants.ts';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const grant = (over: Partial<GrantOrderFacts>): GrantOrderFacts => ({
  priority: 0,
  expires_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  id: 'b',
  ...over,
});

describe('the draw order of grants', () => {
  it('puts the higher priority first, then the sooner expiry (none last), then the older, then the id', () => {
    expect(compareGrants(grant({ priority: 2 }), grant({ priority: 1 }))).toBeLessThan(0);
    expect(compareGrants(grant({ priority: 1 }), grant({ priority: 2 }))).toBeGreaterThan(0);
    expect(compareGrants(grant({ expires_at: at(1) }), grant({ expires_at: at(2) }))).toBeLessThan(0);
    expect(compareGrants(grant({ expires_at: at(2) }), grant({ expires_at: at(1) }))).toBeGreaterThan(0);
    expect(compareGrants(grant({ expires_at: at(1) }), grant({ expires_at: null }))).toBeLessThan(0);
    expect(compareGrants(grant({ expires_at: null }), grant({ expires_at: at(1) }))).toBeGreaterThan(0);
    expect(
      compareGrants(grant({ created_at: '2026-01-01T00:00:00.000Z' }), grant({ created_at: '2026-01-02T00:00:00.000Z' })),
    ).toBeLessThan(0);
    expect(
      compareGrants(grant({ created_at: '2026-01-02T00:00:00.000Z' }), grant({ created_at: '2026-01-01T00:00:00.000Z' })),
    ).toBeGreaterThan(0);
    expect(compareGrants(grant({ id: 'a' }), grant({ id: 'b' }))).toBe(-1);
    expect(compareGrants(grant({ id: 'b' }), grant({ id: 'a' }))).toBe(1);
    expect(compareGrants(grant({}), grant({}))).toBe(0);
    // Priority outranks expiry, expiry outranks age.
    expect(compareGrants(grant({ priority: 1, expires_at: null }), grant({ priority: 0, expires_at: at(1) }))).toBeLessThan(0);
    expect(compareGrants(grant({ expires_at: at(1), created_at: '2026-02-01T00:00:00.000Z' }), grant({ expires_at: at(2) }))).toBeLessThan(
      0,
    );
  });

  it('draws a grant before the open credits when it has a priority or an expiry', () => {
    expect(drawnBeforeOpen({ priority: 1, expires_at: null })).toBe(true);
    expect(drawnBeforeOpen({ priority: 0, expires_at: at(1) })).toBe(true);
    expect(drawnBeforeOpen({ priority: 0, expires_at: null })).toBe(false);
  });
});

describe('grant terms', () => {
  it('say something only with an expiry, agent types or a priority above 0', () => {
    expect(hasGrantTerms(null)).toBe(false);
    expect(hasGrantTerms(undefined)).toBe(false);
    expect(hasGrantTerms({})).toBe(false);
    expect(hasGrantTerms({ priority: 0, agent_types: [] })).toBe(false);
    expect(hasGrantTerms({ priority: 1 })).toBe(true);
    expect(hasGrantTerms({ expires_at: at(1) })).toBe(true);
    expect(hasGrantTerms({ agent_types: ['voice'] })).toBe(true);
  });

  it('accept an expiry ahead, distinct agent codes and a priority of 0 to 100, and refuse the rest with its message', () => {
    expect(grantTermsSchema.parse({ expires_at: at(1), agent_types: ['voice', 'chat'], priority: 100 })).toMatchObject({ priority: 100 });
    expect(grantTermsSchema.parse({ priority: 0 })).toEqual({ priority: 0 });
    const message = (input: unknown) => grantTermsSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ expires_at: at(-1) })).toBe(GRANT_MESSAGES.expiryInPast);
    expect(message({ expires_at: at(3651) })).toBe(GRANT_MESSAGES.expiryTooFar);
    expect(grantTermsSchema.safeParse({ expires_at: at(3649) }).success).toBe(true);
    expect(message({ agent_types: [] })).toBe(GRANT_MESSAGES.agentTypesEmpty);
    expect(message({ agent_types: ['voice', 'voice'] })).toBe(GRANT_MESSAGES.agentTypesDistinct);
    expect(message({ priority: 101 })).toBe(GRANT_MESSAGES.priorityRange);
    expect(message({ priority: -1 })).toBe(GRANT_MESSAGES.priorityRange);
    expect(message({ priority: 1.5 })).toBe(GRANT_MESSAGES.priorityRange);
    expect(grantTermsSchema.safeParse({ other: 1 }).success).toBe(false);
    expect(grantTermsSchema.safeParse({ expires_at: 'tomorrow' }).success).toBe(false);
    expect(grantTermsSchema.safeParse({ agent_types: Array.from({ length: 101 }, (_, i) => `agent-${i}`) }).success).toBe(false);
  });

  it('word the mails and refusals with the amounts formatted', () => {
    expect(GRANT_MESSAGES.expiringMailSubject('40.00', 1)).toBe('40.00 credits expire in 1 day');
    expect(GRANT_MESSAGES.expiringMailSubject('40.00', 7)).toBe('40.00 credits expire in 7 days');
    expect(GRANT_MESSAGES.expiringMailBody('Acme', '40.00', '2026-12-09T00:00:00.000Z', 'Agency')).toBe(
      '40.00 credits of Acme expire at 2026-12-09T00:00:00.000Z. What is left then goes back to Agency.',
    );
    expect(GRANT_MESSAGES.notSpendable('35.00')).toContain('35.00 credits');
    expect(GRANT_MESSAGES.unknownAgentType('x')).toBe('No agent type has the code "x".');
  });
});
