import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { watchViews } from '@/test/query-views';
import { json, mockApi } from '@/test/helpers';
import { useAllocateCredits } from './credits';
import { EXPIRING_SOON_DAYS } from './grants';
import { creditKeys } from './query-keys';

const PARENT = '00000000-0000-4000-8000-000000000001';
const CHILD = '00000000-0000-4000-8000-0000000000c1';

/** The grant views a movement may change: the balance in parts (both lists) and the dashboard's Expiring soon. */
const VIEWS = {
  parentGrants: creditKeys.grants(PARENT, false),
  childGrants: creditKeys.grants(CHILD, false),
  childAllGrants: creditKeys.grants(CHILD, true),
  expiring: creditKeys.expiringGrants(EXPIRING_SOON_DAYS),
} as const;

const { seeded, wrapper, invalidated } = watchViews(VIEWS);

// Every movement goes through the same mutation (allocations, reversals, adjustments): its keys are under `credits`.
describe('credit grants are asked again after a movement made in the console', () => {
  it('an allocation (with terms or not): both balances in parts, every list of grants and Expiring soon', async () => {
    mockApi({
      'POST /api/credits/allocations': () =>
        json(200, { transaction_id: '00000000-0000-4000-9000-0000000000f1', from_balance: '900.00', to_balance: '100.00' }),
    });
    const client = seeded();
    const { result } = renderHook(() => useAllocateCredits(), { wrapper: wrapper(client) });
    await result.current.mutateAsync({ input: { to_org_id: CHILD, from_org_id: PARENT, amount: '100.00' }, idempotencyKey: 'k' });
    expect(invalidated(client)).toEqual(['parentGrants', 'childGrants', 'childAllGrants', 'expiring']);
  });
});
