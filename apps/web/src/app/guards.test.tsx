import { LINKS, type Session } from '@console/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { PASSWORD_METHOD } from '@/test/identity-data';
import { AppProviders } from './providers';
import { RoleGate } from './guards';
import { createQueryClient } from '@/lib/query-client';
import { MESSAGES } from '@/lib/wording';

// Pages are lazy chunks: load the ones these tests open before their clocks start.
beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('@/app/settings-route')]), 30_000);

function location() {
  return screen.getByTestId('location');
}

describe('route guards', () => {
  it('sends a signed-out visitor to /login and back to the origin after signing in', async () => {
    const session = makeSession();
    mockApi({ ...PASSWORD_METHOD, 'POST /api/auth/sign-in': () => json(200, session) });
    renderApp('/settings?tab=profile', { session: null });
    // The page to return to travels in the address, so a reload of the sign-in page keeps it.
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login\?next=%2Fsettings%3Ftab%3Dprofile$/));

    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), session.user.email);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(location()).toHaveTextContent('/settings?tab=profile'));
  });

  it('waits for the start-up refresh instead of redirecting', async () => {
    let restore: (response: Response) => void = () => {};
    mockApi({
      'POST /api/auth/refresh': () => new Promise<Response>((resolve) => (restore = resolve)),
    });
    renderApp('/settings');
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(location()).toHaveTextContent('/settings');

    restore(json(200, makeSession()));
    expect(await screen.findByRole('heading', { name: MESSAGES.shell.nav.settings, level: 1 })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/settings');
  });

  it('redirects to /login when the start-up refresh finds no session', async () => {
    mockApi({ 'POST /api/auth/refresh': () => apiError(401, 'unauthorized', 'no session') });
    renderApp('/team');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login\?next=%2Fteam$/));
  });

  it.each(['/reset-password', '/update-password', '/invitation', '/auth/accept-invitation'])(
    'lets a signed-out visitor open %s',
    async (path) => {
      renderApp(path, { session: null });
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(location()).toHaveTextContent(path);
    },
  );

  it('sends non-house roles from /organizations/* to the same path under /orgs', async () => {
    renderApp('/organizations/abc/edit?x=1', { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    await waitFor(() => expect(location()).toHaveTextContent('/orgs/abc/edit?x=1'));
  });

  it('keeps house roles on /organizations/*', async () => {
    renderApp('/organizations', { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    expect(await screen.findByRole('heading', { name: MESSAGES.shell.nav.organizations })).toBeInTheDocument();
    expect(location()).toHaveTextContent('/organizations');
  });

  it('sends refused roles of a role gate to /dashboard by default', async () => {
    sessionStore.set(makeSession({ role: 'tenant_user' }));
    render(
      <MemoryRouter initialEntries={['/gated']}>
        <AppProviders queryClient={createQueryClient()}>
          <Routes>
            <Route element={<RoleGate allow={(claims) => claims.role === 'tenant_admin'} />}>
              <Route path="/gated" element={<p>gated content</p>} />
            </Route>
            <Route path="/dashboard" element={<p>dashboard page</p>} />
          </Routes>
        </AppProviders>
      </MemoryRouter>,
    );
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(screen.queryByText('gated content')).not.toBeInTheDocument();
  });

  it('shows Access Denied on /debug to roles outside the debug list', async () => {
    renderApp('/debug', { session: makeSession({ role: 'tenant_admin' }) });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
  });

  it('shows a not-found page with a way to the dashboard for unknown routes', async () => {
    renderApp('/no/such/page', { session: makeSession() });
    expect(await screen.findByRole('heading', { name: MESSAGES.generic.notFound })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: /Dashboard/ })).toHaveAttribute('href', '/dashboard');
  });
});

describe('welcome page', () => {
  it('offers the documentation set by the house admins and Get Started, and names the theme', async () => {
    mockApi({ 'GET /api/settings/public': () => json(200, { documentation_url: 'https://docs.example.test' }) });
    renderApp('/', { session: null });
    expect(await screen.findByRole('link', { name: MESSAGES.welcome.getStarted })).toHaveAttribute('href', '/login');
    const docs = await screen.findByRole('link', { name: MESSAGES.welcome.documentation });
    expect(docs).toHaveAttribute('href', 'https://docs.example.test');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(screen.getByText(/Current theme: light/)).toBeInTheDocument();
  });

  it('says when no documentation site is set, and offers the API reference', async () => {
    mockApi({ 'GET /api/settings/public': () => json(200, { documentation_url: null }) });
    renderApp('/', { session: null });
    expect(await screen.findByText(MESSAGES.welcome.noDocumentation)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: MESSAGES.welcome.apiReference })).toHaveAttribute('href', LINKS.apiReference);
    expect(screen.queryByRole('link', { name: MESSAGES.welcome.documentation })).not.toBeInTheDocument();
  });

  it('sends a signed-in user to the dashboard', async () => {
    const session: Session = makeSession();
    mockApi({ 'GET /api/users/me': () => json(200, session.user) });
    renderApp('/', { session });
    await waitFor(() => expect(location()).toHaveTextContent('/dashboard'));
  });
});
