import { creditsEndpoints, ERROR_CODES, MESSAGES as DOMAIN_MESSAGES } from '@console/domain';
import { fireEvent, screen } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderWithProviders } from '@/test/helpers';
import { call } from '@/lib/api';
import { browserPasskeys } from '@/lib/passkey';
import { sessionStore } from '@/lib/session-store';
import { MESSAGES } from '@/lib/wording';
import { StepUpDialog } from './step-up-dialog';

// The browser's passkey prompt: what it answers is set per test.
const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
const realBrowser = { ...browserPasskeys };
beforeAll(() => Object.assign(browserPasskeys, browser));
afterAll(() => Object.assign(browserPasskeys, realBrowser));
beforeEach(() => browser.startAuthentication.mockReset());

const ALLOCATE = 'POST /api/credits/allocations';
const STEP_UP = 'POST /api/auth/step-up';
const CHECK = 'POST /api/account/passkeys/check-options';
const RESULT = { transaction_id: '00000000-0000-4000-8000-0000000000aa', from_balance: '0.00', to_balance: '2000.00' };
const BODY = { from_org_id: '00000000-0000-4000-8000-000000000001', to_org_id: '00000000-0000-4000-8000-000000000002', amount: '2000.00' };
const OPTIONS = { challenge: 'check', allowCredentials: [] };
const AUTH_ANSWER = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'Y2RK', authenticatorData: 'YXV0aA', signature: 'c2ln' },
  clientExtensionResults: {},
};

/** The allocation asks for a step-up until one was given; the step-up takes what `verdict` says. */
function serverAsking(methods: string[], verdict: (body: any) => Response) {
  let steppedUp = false;
  return mockApi({
    [ALLOCATE]: () => (steppedUp ? json(200, RESULT) : apiError(401, ERROR_CODES.stepUpRequired, DOMAIN_MESSAGES.auth.stepUpRequired)),
    'GET /api/auth/step-up': () => json(200, { methods, fresh_until: null }),
    [CHECK]: () => json(200, OPTIONS),
    [STEP_UP]: ({ body }) => {
      const answer = verdict(body);
      if (answer.ok) steppedUp = true;
      return answer;
    },
  });
}

const allocate = () => call(creditsEndpoints.allocate, { body: BODY });

describe('step-up dialog with a passkey', () => {
  it('a person whose factor is a passkey confirms with it: the re-check options, the browser’s prompt, the answer; the request lands', async () => {
    sessionStore.set(makeSession());
    browser.startAuthentication.mockResolvedValue(AUTH_ANSWER);
    const api = serverAsking(['passkey', 'recovery_code'], () => json(200, { fresh_until: 1_900_000_000 }));
    renderWithProviders(<StepUpDialog />);
    const result = allocate();
    expect(await screen.findByText(MESSAGES.stepUp.passkeyDescription)).toBeTruthy();
    // No password field: the factor, never the password, confirms.
    expect(screen.queryByLabelText(MESSAGES.stepUp.passwordLabel)).toBeNull();
    expect(screen.getByRole('button', { name: MESSAGES.stepUp.useRecoveryCode })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.usePasskey }));
    await expect(result).resolves.toEqual(RESULT);
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(api.bodiesOf(STEP_UP)).toEqual([{ method: 'passkey', response: AUTH_ANSWER }]);
    expect(api.callsTo(CHECK)).toHaveLength(1);
  });

  it('a cancelled prompt is said and sends nothing; the server’s refusal is said; the app person may switch to a passkey', async () => {
    sessionStore.set(makeSession());
    browser.startAuthentication.mockRejectedValueOnce(Object.assign(new Error('cancelled'), { name: 'NotAllowedError' }));
    browser.startAuthentication.mockResolvedValue(AUTH_ANSWER);
    const api = serverAsking(['totp', 'passkey', 'recovery_code'], () =>
      apiError(422, 'passkey_refused', DOMAIN_MESSAGES.auth.passkeyRefused),
    );
    renderWithProviders(<StepUpDialog />);
    void allocate().catch(() => undefined);
    // The app comes first; the passkey and the recovery code are a click away.
    await screen.findByLabelText(MESSAGES.stepUp.codeLabel);
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.usePasskeyInstead }));
    expect(screen.getByRole('button', { name: MESSAGES.stepUp.useApp })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.usePasskey }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.passkeyCancelled)).toBeTruthy();
    expect(api.callsTo(STEP_UP)).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.usePasskey }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.passkeyRefused)).toBeTruthy();
    expect(api.bodiesOf(STEP_UP)).toEqual([{ method: 'passkey', response: AUTH_ANSWER }]);
    expect(api.callsTo(ALLOCATE)).toHaveLength(1);
  });
});
