import { creditsEndpoints, ERROR_CODES, MESSAGES as DOMAIN_MESSAGES } from '@console/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderWithProviders } from '@/test/helpers';
import { call } from '@/lib/api';
import { browser } from '@/lib/reload';
import { sessionStore } from '@/lib/session-store';
import { MESSAGES } from '@/lib/wording';
import { StepUpDialog } from './step-up-dialog';

const t = MESSAGES.stepUp;
const ALLOCATE = 'POST /api/credits/allocations';
const STATUS = 'GET /api/auth/step-up';
const SSO_STEP_UP = 'POST /api/auth/sso/step-up';
const PROVIDER = 'https://login.acme.example/authorize?client_id=console&state=s1&prompt=login&max_age=0';
const BODY = { from_org_id: '00000000-0000-4000-8000-000000000001', to_org_id: '00000000-0000-4000-8000-000000000002', amount: '2000.00' };

/** The allocation asks for a step-up; the session began at the provider, which is where it confirms. */
function serverAsking(methods: string[], start: () => Response = () => json(200, { redirect_url: PROVIDER })) {
  return mockApi({
    [ALLOCATE]: () => apiError(401, ERROR_CODES.stepUpRequired, DOMAIN_MESSAGES.auth.stepUpRequired),
    [STATUS]: () => json(200, { methods, fresh_until: null }),
    [SSO_STEP_UP]: start,
    'POST /api/auth/refresh': () => apiError(401, 'unauthorized', 'no session'),
  });
}

/** The page's address as the router has it. */
function Where() {
  const location = useLocation();
  return <output data-testid="where">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

const allocate = () => call(creditsEndpoints.allocate, { body: BODY }).catch((error: unknown) => error);

afterEach(() => vi.restoreAllMocks());

describe('step-up dialog, for a session begun at the identity provider', () => {
  it('confirms with the identity provider: the browser goes there, to come back to this very page', async () => {
    sessionStore.set(makeSession());
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const api = serverAsking(['sso']);
    // An earlier round trip's outcome is not carried back again.
    renderWithProviders(<StepUpDialog />, '/credits?tab=history&step_up_error=expired#top');
    void allocate();
    expect(await screen.findByText(t.providerDescription)).toBeInTheDocument();
    expect(screen.queryByLabelText(t.passwordLabel)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: t.confirmWithProvider }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(PROVIDER));
    expect(api.bodiesOf(SSO_STEP_UP)).toEqual([{ return_to: '/credits?tab=history#top' }]);
    expect(screen.getByRole('button', { name: t.goingToProvider })).toBeDisabled();
    // The session is kept: the page is left, not signed out.
    expect(api.callsTo('POST /api/auth/refresh')).toHaveLength(0);
    expect(sessionStore.get().status).toBe('signed-in');
    // Should the browser not leave after all, the dialog can still be closed.
    fireEvent.click(screen.getByRole('button', { name: t.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers the provider first and the factors too, each reachable from the other', async () => {
    sessionStore.set(makeSession());
    serverAsking(['sso', 'totp', 'recovery_code']);
    renderWithProviders(<StepUpDialog />);
    void allocate();
    expect(await screen.findByRole('button', { name: t.confirmWithProvider })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: t.useApp }));
    expect(await screen.findByLabelText(t.codeLabel)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: t.useProviderInstead }));
    expect(await screen.findByRole('button', { name: t.confirmWithProvider })).toBeInTheDocument();
    expect(screen.queryByLabelText(t.codeLabel)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: t.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("says the server's refusal to start, and stays", async () => {
    sessionStore.set(makeSession());
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    serverAsking(['sso'], () => apiError(503, 'unavailable', DOMAIN_MESSAGES.identity.providerUnavailable));
    renderWithProviders(<StepUpDialog />);
    void allocate();
    fireEvent.click(await screen.findByRole('button', { name: t.confirmWithProvider }));
    expect(await screen.findByText(DOMAIN_MESSAGES.identity.providerUnavailable)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: t.confirmWithProvider })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: t.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('back on the page, says the confirmation worked and to do the action again, and clears the address', async () => {
    sessionStore.set(makeSession());
    renderWithProviders(
      <>
        <StepUpDialog />
        <Where />
      </>,
      '/credits?tab=history&step_up=ok#top',
    );
    expect(await screen.findByText(DOMAIN_MESSAGES.identity.stepUpConfirmed)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/credits\?tab=history#top$/));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('back on the page after a refusal, says why', async () => {
    sessionStore.set(makeSession());
    renderWithProviders(
      <>
        <StepUpDialog />
        <Where />
      </>,
      '/credits?step_up_error=wrong_person',
    );
    expect(await screen.findByText(DOMAIN_MESSAGES.identity.stepUpErrors.wrong_person)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/credits$/));
  });

  it('says nothing of an outcome it does not know, and leaves the address alone', async () => {
    sessionStore.set(makeSession());
    renderWithProviders(
      <>
        <StepUpDialog />
        <Where />
      </>,
      '/credits?step_up=<script>',
    );
    expect(screen.getByTestId('where')).toHaveTextContent('/credits?step_up=<script>');
    expect(screen.queryByText(DOMAIN_MESSAGES.identity.stepUpConfirmed)).not.toBeInTheDocument();
  });
});
