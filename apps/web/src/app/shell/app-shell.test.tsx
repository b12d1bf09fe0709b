import { UI } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { json, makeSession, mockApi, renderApp, setViewportWidth } from '@/test/helpers';
import { MESSAGES } from '@/lib/wording';

const { shell, auth } = MESSAGES;

// The shell and the first page are lazy chunks: loaded once before the tests, so none waits on a cold import.
beforeAll(async () => {
  await Promise.all([import('./app-shell'), import('@/features/settings/pages/settings-page')]);
});

describe('application shell on wide screens', () => {
  it('shows the sidebar with the product name and marks the active item', async () => {
    renderApp('/settings', { session: makeSession() });
    expect(await screen.findByRole('heading', { name: UI.productName })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: shell.nav.settings })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: shell.nav.dashboard })).not.toHaveAttribute('aria-current');
    expect(screen.queryByRole('button', { name: 'Open menu' })).not.toBeInTheDocument();
  });

  it('never cuts the product name with an ellipsis: it wraps in the 16rem sidebar instead', async () => {
    renderApp('/settings', { session: makeSession() });
    const heading = await screen.findByRole('heading', { name: UI.productName });
    expect(heading).toHaveTextContent(/^Organization Console$/);
    expect(heading).not.toHaveClass('truncate');
    expect(heading).not.toHaveClass('whitespace-nowrap');
    expect(heading).toHaveClass('break-words');
  });

  it('collapses to a floating open button and remembers the choice', async () => {
    const user = userEvent.setup();
    renderApp('/settings', { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Collapse sidebar' }));
    expect(screen.queryByRole('heading', { name: UI.productName })).not.toBeInTheDocument();
    expect(localStorage.getItem(UI.sidebarStorageKey)).toBe('false');

    await user.click(screen.getByRole('button', { name: 'Open sidebar' }));
    expect(screen.getByRole('heading', { name: UI.productName })).toBeInTheDocument();
    expect(localStorage.getItem(UI.sidebarStorageKey)).toBe('true');
  });

  it('starts collapsed when the stored state says so', async () => {
    localStorage.setItem(UI.sidebarStorageKey, 'false');
    renderApp('/settings', { session: makeSession() });
    expect(await screen.findByRole('button', { name: 'Open sidebar' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: UI.productName })).not.toBeInTheDocument();
  });
});

describe('application shell on narrow screens', () => {
  it('names the page in the header', async () => {
    setViewportWidth(390);
    renderApp('/settings', { session: makeSession() });
    expect(await screen.findByTestId('page-title')).toHaveTextContent(shell.nav.settings);
  });

  it('opens the Menu sheet from the menu button and closes it after navigating', async () => {
    setViewportWidth(375);
    const user = userEvent.setup();
    renderApp('/settings', { session: makeSession() });
    expect(screen.queryByRole('heading', { name: UI.productName })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    const sheet = await screen.findByRole('dialog', { name: shell.menuTitle });
    expect(sheet).toHaveAccessibleDescription(shell.menuDescription);

    await user.click(within(sheet).getByRole('link', { name: shell.nav.team }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/team'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('theme button', () => {
  it('reads Dark mode on the default light theme and switches to dark', async () => {
    const user = userEvent.setup();
    renderApp('/settings', { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: shell.darkMode }));
    expect(screen.getByRole('button', { name: shell.lightMode })).toBeInTheDocument();
    expect(localStorage.getItem(UI.themeStorageKey)).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');
    expect(document.documentElement).not.toHaveClass('light');
  });

  it('under the system theme offers the opposite of what the device shows', async () => {
    // The device prefers dark: the page is dark, so the button offers Light mode.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(prefers-color-scheme: dark)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    localStorage.setItem(UI.themeStorageKey, 'system');
    const user = userEvent.setup();
    renderApp('/settings', { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: shell.lightMode }));
    expect(localStorage.getItem(UI.themeStorageKey)).toBe('light');
    expect(document.documentElement).toHaveClass('light');
  });
});

describe('profile menu', () => {
  async function openMenu(session = makeSession()) {
    const user = userEvent.setup();
    renderApp('/settings', { session });
    const trigger = await screen.findByRole('button', { name: new RegExp(session.user.email) });
    await user.click(trigger);
    return { user, menu: await screen.findByRole('menu') };
  }

  it('shows the avatar letter, first name and e-mail', async () => {
    renderApp('/settings', { session: makeSession({ firstName: 'bea', email: 'b@example.test' }) });
    const trigger = await screen.findByRole('button', { name: /b@example\.test/ });
    expect(trigger).toHaveTextContent('b');
    expect(trigger).toHaveTextContent('bea');
  });

  it('falls back to Profile without a first name', async () => {
    renderApp('/settings', { session: makeSession({ firstName: null, email: 'zed@example.test' }) });
    const trigger = await screen.findByRole('button', { name: /zed@example\.test/ });
    expect(trigger).toHaveTextContent(shell.profileFallback);
  });

  it('offers Change password, which opens the signed-in password form', async () => {
    const { user, menu } = await openMenu(makeSession({ role: 'tenant_admin' }));
    await user.click(within(menu).getByRole('menuitem', { name: MESSAGES.authPages.changePassword }));
    expect(await screen.findByRole('heading', { name: MESSAGES.authPages.changePassword, level: 1 })).toBeInTheDocument();
  });

  it('lists Settings and Log out without keyboard shortcuts (none is bound), and no Debug for a tenant admin', async () => {
    const { menu } = await openMenu(makeSession({ role: 'tenant_admin' }));
    expect(within(menu).getByRole('menuitem', { name: /Settings/ }).textContent).toBe(shell.settings);
    expect(within(menu).getByRole('menuitem', { name: /Log out/ }).textContent).toBe(shell.logOut);
    expect(within(menu).queryByRole('menuitem', { name: shell.debug })).not.toBeInTheDocument();
  });

  it('offers Debug to a house admin and opens /debug', async () => {
    const { user, menu } = await openMenu(makeSession({ role: 'house_admin', orgType: 'house' }));
    await user.click(within(menu).getByRole('menuitem', { name: shell.debug }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/debug'));
    expect(await screen.findByRole('heading', { name: shell.debugTitle })).toBeInTheDocument();
  });

  it('signs out: the toast "Signed out" says so, and /login too', async () => {
    mockApi({ 'POST /api/auth/sign-out': () => json(200, { ok: true }) });
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: /Log out/ }));
    const toast = (await screen.findByText('You have been signed out successfully.')).closest('[data-sonner-toast]') as HTMLElement;
    expect(within(toast).getByText('Signed out')).toBeInTheDocument();
    expect(await screen.findByText(auth.signedOutBody)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
  });

  it('stays signed in with an error toast when signing out fails', async () => {
    mockApi({
      'POST /api/auth/sign-out': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('menuitem', { name: /Log out/ }));
    expect(await screen.findByText(auth.signOutErrorBody)).toBeInTheDocument();
    expect(screen.getByText(auth.signOutErrorTitle)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/settings');
  });
});
