import { creditsEndpoints, ERROR_CODES } from '@console/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderWithProviders } from '@/test/helpers';
import { ApiError, call } from '@/lib/api';
import { sessionStore } from '@/lib/session-store';
import { MESSAGES } from '@/lib/wording';
import { StepUpDialog } from './step-up-dialog';

const ALLOCATE = 'POST /api/credits/allocations';
const STEP_UP = 'POST /api/auth/step-up';
const STATUS = 'GET /api/auth/step-up';
const RESULT = { transaction_id: '00000000-0000-4000-8000-0000000000aa', from_balance: '0.00', to_balance: '2000.00' };
const BODY = { from_org_id: '00000000-0000-4000-8000-000000000001', to_org_id: '00000000-0000-4000-8000-000000000002', amount: '2000.00' };

/** The allocation asks for a step-up until one was given, then lands. */
function serverAsking(methods: string[], stepUp: (body: any) => Response) {
  let steppedUp = false;
  return mockApi({
    [ALLOCATE]: () => (steppedUp ? json(200, RESULT) : apiError(401, ERROR_CODES.stepUpRequired, MESSAGES.auth.stepUpRequired)),
    [STATUS]: () => json(200, { methods, fresh_until: null }),
    [STEP_UP]: ({ body }) => {
      const answer = stepUp(body);
      if (answer.ok) steppedUp = true;
      return answer;
    },
    'POST /api/auth/refresh': () => apiError(401, 'unauthorized', 'no session'),
  });
}

const allocate = () => call(creditsEndpoints.allocate, { body: BODY });

describe('step-up dialog', () => {
  it('asks a person without an app for the password, then sends the refused request again and resolves it; the session stays', async () => {
    sessionStore.set(makeSession());
    const api = serverAsking(['password'], () => json(200, { fresh_until: 1_900_000_000 }));
    renderWithProviders(<StepUpDialog />);
    const result = allocate();
    const password = await screen.findByLabelText(MESSAGES.stepUp.passwordLabel);
    fireEvent.change(password, { target: { value: 'the password' } });
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.submit }));
    await expect(result).resolves.toEqual(RESULT);
    expect(api.bodiesOf(STEP_UP)).toEqual([{ method: 'password', password: 'the password' }]);
    expect(api.callsTo(ALLOCATE)).toHaveLength(2);
    // A step-up is not an expired session: nothing was refreshed and nobody signed out.
    expect(api.callsTo('POST /api/auth/refresh')).toHaveLength(0);
    expect(sessionStore.get().status).toBe('signed-in');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("asks a person with an app for its code, shows the server's message for a wrong one, and takes a recovery code", async () => {
    sessionStore.set(makeSession());
    const api = serverAsking(['totp', 'recovery_code'], (body) =>
      body.method === 'recovery_code'
        ? json(200, { fresh_until: 1_900_000_000 })
        : json(400, {
            error: { code: ERROR_CODES.validation, message: MESSAGES.auth.codeWrong, fields: { code: MESSAGES.auth.codeWrong } },
          }),
    );
    renderWithProviders(<StepUpDialog />);
    const result = allocate();
    fireEvent.change(await screen.findByLabelText(MESSAGES.stepUp.codeLabel), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.submit }));
    expect(await screen.findByText(MESSAGES.auth.codeWrong)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.useRecoveryCode }));
    fireEvent.change(screen.getByLabelText(MESSAGES.stepUp.recoveryLabel), { target: { value: 'abcde-fghjk' } });
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.submit }));
    await expect(result).resolves.toEqual(RESULT);
    expect(api.bodiesOf(STEP_UP)).toEqual([
      { method: 'totp', code: '123456' },
      { method: 'recovery_code', code: 'abcde-fghjk' },
    ]);
  });

  it('cancelled, the request fails with a clear error and is not sent again', async () => {
    sessionStore.set(makeSession());
    const api = serverAsking(['password'], () => json(200, { fresh_until: 1_900_000_000 }));
    renderWithProviders(<StepUpDialog />);
    const result = allocate().catch((error: unknown) => error);
    await screen.findByLabelText(MESSAGES.stepUp.passwordLabel);
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.cancel }));
    const error = await result;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: ERROR_CODES.stepUpRequired, message: MESSAGES.auth.stepUpCancelled });
    expect(api.callsTo(ALLOCATE)).toHaveLength(1);
    expect(api.callsTo(STEP_UP)).toHaveLength(0);
    expect(sessionStore.get().status).toBe('signed-in');
  });

  it('requests refused together share one dialog and one step-up', async () => {
    sessionStore.set(makeSession());
    const api = serverAsking(['password'], () => json(200, { fresh_until: 1_900_000_000 }));
    renderWithProviders(<StepUpDialog />);
    const both = Promise.all([allocate(), allocate()]);
    fireEvent.change(await screen.findByLabelText(MESSAGES.stepUp.passwordLabel), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: MESSAGES.stepUp.submit }));
    await expect(both).resolves.toEqual([RESULT, RESULT]);
    expect(api.callsTo(STEP_UP)).toHaveLength(1);
  });

  it('with no dialog to ask (outside the shell), the refusal is the error and the session is kept', async () => {
    sessionStore.set(makeSession());
    const api = serverAsking(['password'], () => json(200, { fresh_until: 1 }));
    await expect(allocate()).rejects.toMatchObject({ status: 401, code: ERROR_CODES.stepUpRequired });
    expect(api.callsTo('POST /api/auth/refresh')).toHaveLength(0);
    expect(sessionStore.get().status).toBe('signed-in');
  });
});
