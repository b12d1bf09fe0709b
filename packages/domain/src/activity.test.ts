import { describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS, ACTIVITY_ACTION_LABELS, activitySentence, formatAmount, ledgerSentence, personName } from './activity.ts';

const facts = (action: string, details: Record<string, unknown> = {}, target: string | null = 'Acme Dental') => ({
  action,
  actor: 'Ana Ruiz',
  organization: 'Northwind',
  target,
  details,
});

describe('activitySentence', () => {
  it('reads an allocation as a person would say it', () => {
    expect(activitySentence(facts('credits.allocate', { amount: '500' }))).toBe('Ana Ruiz allocated 500.00 credits to Acme Dental');
  });

  it('names a key for machine actions', () => {
    expect(activitySentence({ ...facts('usage.reported', { accepted: 1000, credits_charged: '12.5' }), actor: 'Key ci-runner' })).toBe(
      'Key ci-runner reported 1,000 usage events (12.50 credits)',
    );
  });

  it('tells a status change from an edit', () => {
    expect(activitySentence(facts('organization.update', { after: { status: 'suspended' } }))).toBe(
      'Ana Ruiz set the status of Acme Dental to suspended',
    );
    expect(activitySentence(facts('organization.update', { after: { name: 'New' } }))).toBe('Ana Ruiz edited Acme Dental');
  });

  it('has a sentence and a label for every action, and a fallback for an unknown one', () => {
    for (const action of ACTIVITY_ACTIONS) {
      expect(ACTIVITY_ACTION_LABELS[action]).toBeTruthy();
      expect(activitySentence(facts(action))).not.toMatch(/undefined|null|\[object/);
    }
    expect(activitySentence(facts('something.new'))).toBe('Ana Ruiz: something new');
  });
});

describe('ledgerSentence', () => {
  const entry = { amount: '-500.00', metadata: { notes: 'spring' }, actor: 'Ana Ruiz', counterparty: 'Acme Dental' };
  it('says who and with whom', () => {
    expect(ledgerSentence({ ...entry, entry_type: 'allocation_sent' })).toBe('Ana Ruiz allocated 500.00 credits to Acme Dental: spring');
    expect(ledgerSentence({ ...entry, entry_type: 'allocation_received', amount: '500.00', counterparty: 'Northwind' })).toBe(
      'Received 500.00 credits from Northwind, allocated by Ana Ruiz: spring',
    );
    expect(
      ledgerSentence({
        entry_type: 'consumption',
        amount: '-2.00',
        metadata: { agent: 'bot' },
        units: '4.0000',
        actor: null,
        counterparty: null,
      }),
    ).toBe('bot used 4 units, charged 2.00 credits');
  });

  it('reads an automatic top-up as such, without a person', () => {
    const automatic = { metadata: { automatic: true, notes: 'Automatic top-up' }, actor: null };
    expect(ledgerSentence({ ...automatic, entry_type: 'allocation_sent', amount: '-50.00', counterparty: 'Acme Dental' })).toBe(
      'Automatic top-up: sent 50.00 credits to Acme Dental',
    );
    expect(ledgerSentence({ ...automatic, entry_type: 'allocation_received', amount: '50.00', counterparty: 'Northwind' })).toBe(
      'Automatic top-up: received 50.00 credits from Northwind',
    );
  });

  it("names a consumption entry's agent from the catalog, with its unit and the usage record", () => {
    const consumption = { entry_type: 'consumption', amount: '-3.25', units: '1200.5000', actor: null, counterparty: null };
    expect(
      ledgerSentence({
        ...consumption,
        metadata: { agent: 'bot', usage: { tokens: 1200, model: 'gpt' } },
        agent: { name: 'Support bot', unit: 'run' },
      }),
    ).toBe('Support bot used 1,200.5 × run, charged 3.25 credits (tokens 1200, model gpt)');
    expect(ledgerSentence({ ...consumption, units: null, metadata: { usage: { tokens: 1200 } }, actor: 'Ana Ruiz' })).toBe(
      'Usage, charged 3.25 credits (tokens 1200), imported by Ana Ruiz',
    );
    expect(
      ledgerSentence({ ...consumption, entry_type: 'refund', amount: '1.00', metadata: { usage: { tokens: 10 } }, actor: 'Ana Ruiz' }),
    ).toBe('Ana Ruiz refunded 1.00 credits (tokens 10)');
  });
});

describe('formatAmount and personName', () => {
  it.each([
    ['1234567.5', '1,234,567.50'],
    ['-12', '-12.00'],
    ['abc', 'abc'],
  ])('%s reads %s', (value, shown) => expect(formatAmount(value)).toBe(shown));

  it('uses the e-mail when there is no name', () => {
    expect(personName({ first_name: ' ', last_name: null, email: 'a@b.test' })).toBe('a@b.test');
    expect(personName({ first_name: 'Ana', last_name: 'Ruiz', email: 'a@b.test' })).toBe('Ana Ruiz');
  });
});
