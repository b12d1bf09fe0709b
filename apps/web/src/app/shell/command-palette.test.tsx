import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { entry, ledgerPage } from '@/test/credit-data';
import { json, makeSession, mockApi, renderApp, renderWithProviders, type ApiCall } from '@/test/helpers';
import { makeList, makeOrganization } from '@/test/organization-data';
import { makeUser, page } from '@/test/user-data';
import { sessionStore } from '@/lib/session-store';
import { MESSAGES } from '@/lib/wording';

const { palette, nav } = MESSAGES.shell;

/** How long a find waits for what a lazy chunk or a first answer shows, on a busy machine. */
const SHELL_LOAD_MS = 30_000;

// The pages these tests show and open are lazy chunks: imported once here, not under a find's clock.
beforeAll(async () => {
  await Promise.all([
    import('./app-shell'),
    import('./command-palette-body'),
    import('@/features/settings/pages/settings-page'),
    import('@/features/users/pages/team-page'),
    import('@/features/users/pages/user-detail-page'),
    import('@/features/organizations/pages/organization-detail-page'),
    import('@/features/organizations/pages/create-organization-page'),
    import('@/features/credits/pages/credit-ledger-page'),
  ]);
}, 120_000);

/** Where the router is, once a navigation (which waits for its page's chunk) has landed. */
const landsOn = (path: string | RegExp) =>
  waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(path), { timeout: SHELL_LOAD_MS });

const superAgencyAdmin = () => makeSession({ role: 'super_agency_admin', orgType: 'super_agency', orgName: 'Own Organization' });

/**
 * Answers the palette's searches and the ledger; every other request (the page behind the
 * palette) gets a 404, which is enough for a shell test.
 */
function mockSearches({
  organizations = [],
  people = [],
  entries = [],
}: {
  organizations?: ReturnType<typeof makeOrganization>[];
  people?: ReturnType<typeof makeUser>[];
  entries?: ReturnType<typeof entry>[];
} = {}) {
  return mockApi((call: ApiCall) => {
    if (call.method !== 'GET') return undefined;
    if (call.path === '/api/organizations') {
      const search = (call.query.search ?? '').toLowerCase();
      return json(200, makeList(organizations.filter((org) => org.name.toLowerCase().includes(search))));
    }
    if (call.path === '/api/users') {
      const search = (call.query.search ?? '').toLowerCase();
      return page(
        'users',
        people.filter((person) => `${person.first_name} ${person.last_name}`.toLowerCase().includes(search)),
      );
    }
    if (call.path === '/api/credits/ledger') return json(200, ledgerPage(entries));
    return undefined;
  });
}

async function openWithShortcut(session = makeSession()) {
  const user = userEvent.setup();
  renderApp('/settings', { session });
  // The shell is up once its search button shows (its lazy chunk may take a while on a busy machine).
  await screen.findByRole('button', { name: palette.button }, { timeout: SHELL_LOAD_MS });
  await user.keyboard('{Control>}k{/Control}');
  const dialog = await screen.findByRole('dialog', { name: palette.title });
  return { user, dialog, field: await within(dialog).findByRole('combobox', { name: palette.inputLabel }) };
}

// A file's first render imports the shell's lazy chunk, which a busy shared machine may take long over.
describe('command palette', { timeout: 60_000 }, () => {
  it('opens with Ctrl+K, with the focus in its search field, and Escape closes it; it opens again empty', async () => {
    mockSearches();
    const { user, field } = await openWithShortcut();
    expect(field).toHaveFocus();
    await user.keyboard('tea');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: palette.title })).not.toBeInTheDocument());
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: palette.title });
    expect(within(dialog).getByRole('combobox', { name: palette.inputLabel })).toHaveValue('');
  });

  it('opens from the header search button, which is a button and not a link, at 390 px too', async () => {
    window.innerWidth = 390;
    mockSearches();
    const user = userEvent.setup();
    renderApp('/settings', { session: makeSession() });
    const button = await screen.findByRole('button', { name: palette.button }, { timeout: SHELL_LOAD_MS });
    expect(button.tagName).toBe('BUTTON');
    expect(button.closest('header')).not.toBeNull();
    expect(screen.queryByRole('link', { name: palette.button })).not.toBeInTheDocument();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: palette.title });
    expect(await within(dialog).findByRole('combobox', { name: palette.inputLabel })).toHaveFocus();
  });

  it('finds a page of the navigation by name and opens it on Enter', async () => {
    mockSearches();
    const { user, dialog, field } = await openWithShortcut(makeSession({ role: 'tenant_admin' }));
    await user.type(field, 'tea');
    const pages = within(dialog).getByRole('group', { name: palette.groups.pages });
    const option = within(pages).getByRole('option', { name: nav.team });
    expect(option).toHaveAttribute('aria-selected', 'true');
    expect(field).toHaveAttribute('aria-activedescendant', option.id);
    await user.keyboard('{Enter}');
    await landsOn(/^\/team$/);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: palette.title })).not.toBeInTheDocument());
  });

  it('leaves a form with unsaved edits only as its links do: after asking', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      mockApi((call: ApiCall) => (call.path === '/api/credits/ledger' ? json(200, ledgerPage([])) : undefined));
      const user = userEvent.setup();
      renderApp('/orgs/create', { session: makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Northwind Agency' }) });
      await user.type(await screen.findByLabelText('Name', undefined, { timeout: SHELL_LOAD_MS }), 'Half typed');
      await user.keyboard('{Control>}k{/Control}');
      const dialog = await screen.findByRole('dialog', { name: palette.title });
      await user.type(await within(dialog).findByRole('combobox', { name: palette.inputLabel }), 'team');
      await user.keyboard('{Enter}');
      expect(confirm).toHaveBeenCalledWith(MESSAGES.forms.unsavedChanges);
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs\/create$/);

      confirm.mockReturnValue(true);
      await user.keyboard('{Enter}');
      await landsOn(/^\/team$/);
    } finally {
      confirm.mockRestore();
    }
  });

  it('offers only the pages the navigation shows the person', async () => {
    mockSearches();
    const { user, dialog, field } = await openWithShortcut(makeSession({ role: 'tenant_user' }));
    await user.type(field, 'a');
    const pages = within(dialog).getByRole('group', { name: palette.groups.pages });
    // A tenant user lists neither people nor organizations, and manages no catalog.
    expect(within(pages).queryByRole('option', { name: nav.team })).not.toBeInTheDocument();
    expect(within(pages).queryByRole('option', { name: nav.organizations })).not.toBeInTheDocument();
    expect(within(pages).queryByRole('option', { name: nav.agentCatalog })).not.toBeInTheDocument();
    expect(within(pages).getByRole('option', { name: nav.dashboard })).toBeInTheDocument();
  });

  it("finds an organization of the subtree by name through the list's search and opens it on Enter", async () => {
    const acme = makeOrganization({ name: 'Acme Dental', org_type: 'tenant' });
    const api = mockSearches({ organizations: [makeOrganization({ name: 'Northwind Partners' }), acme] });
    const { user, dialog, field } = await openWithShortcut(superAgencyAdmin());
    await user.type(field, 'Acme');
    const group = await within(dialog).findByRole('group', { name: palette.groups.organizations });
    const option = await within(group).findByRole('option', { name: /Acme Dental/ });
    expect(within(group).queryByRole('option', { name: /Northwind/ })).not.toBeInTheDocument();
    // Debounced: one search for the whole name, over the caller's subtree.
    expect(api.queriesOf('GET /api/organizations')).toEqual([expect.objectContaining({ view: 'descendants', search: 'Acme' })]);
    await waitFor(() => expect(field).toHaveAttribute('aria-activedescendant', option.id));
    await user.keyboard('{Enter}');
    await landsOn(`/orgs/${acme.id}`);
  });

  it('offers an agency admin the organization "acme" names, first and before a person of it, asking for a page the list serves', async () => {
    const acme = makeOrganization({ name: 'Acme Dental', org_type: 'tenant' });
    const branches = Array.from({ length: 9 }, (_, n) => makeOrganization({ name: `Acme Branch ${n + 1}`, org_type: 'tenant' }));
    const frontDesk = makeUser({
      first_name: 'Rita',
      last_name: 'Front',
      email: 'rita@acme-dental.test',
      organization_id: acme.id,
      organization: { id: acme.id, name: acme.name, org_type: 'tenant', status: 'active' },
    });
    const api = mockApi((call: ApiCall) => {
      if (call.method !== 'GET') return undefined;
      // As the server: a page of at most page_size rows; people are found by e-mail too.
      if (call.path === '/api/organizations') return json(200, makeList([acme, ...branches].slice(0, Number(call.query.page_size))));
      if (call.path === '/api/users') return page('users', [frontDesk]);
      return call.path === '/api/credits/ledger' ? json(200, ledgerPage([])) : undefined;
    });
    const { user, dialog, field } = await openWithShortcut(
      makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Northwind Agency' }),
    );
    await user.type(field, 'acme');
    const organizations = await within(dialog).findByRole('group', { name: palette.groups.organizations });
    const option = await within(organizations).findByRole('option', { name: /Acme Dental/ });
    // The smallest page the list serves holds ten; the palette shows eight of them.
    expect(api.queriesOf('GET /api/organizations')).toEqual([{ view: 'descendants', search: 'acme', page_size: '10' }]);
    expect(within(organizations).getAllByRole('option')).toHaveLength(8);
    const people = await within(dialog).findByRole('group', { name: palette.groups.people });
    expect(await within(people).findByRole('option', { name: /Rita Front/ })).toHaveTextContent('rita@acme-dental.test · Acme Dental');
    await waitFor(() => expect(field).toHaveAttribute('aria-activedescendant', option.id));
    await user.keyboard('{Enter}');
    await landsOn(`/orgs/${acme.id}`);
  });

  it('shows no organization of an earlier search while the new one is under way', async () => {
    const acme = makeOrganization({ name: 'Acme Dental', org_type: 'tenant' });
    const api = mockApi((call: ApiCall) => {
      if (call.path === '/api/organizations') {
        // The second search never answers: what shows meanwhile is the palette's own doing.
        return call.query.search === 'Acme' ? json(200, makeList([acme])) : new Promise<Response>(() => {});
      }
      return call.path === '/api/credits/ledger' ? json(200, ledgerPage([])) : undefined;
    });
    const { user, dialog, field } = await openWithShortcut(superAgencyAdmin());
    await user.type(field, 'Acme');
    const group = await within(dialog).findByRole('group', { name: palette.groups.organizations });
    await within(group).findByRole('option', { name: /Acme Dental/ });
    await user.type(field, 'x');
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toEqual(expect.objectContaining({ search: 'Acmex' })));
    expect(within(dialog).queryByRole('option', { name: /Acme Dental/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: palette.groups.organizations })).toHaveTextContent(palette.searching);
  });

  it('finds a person by name, moves to them with the arrow keys and opens them on Enter', async () => {
    const dana = makeUser({ first_name: 'Dana', last_name: 'Scully' });
    const dale = makeUser({ first_name: 'Dale', last_name: 'Cooper' });
    const api = mockSearches({ people: [dale, dana] });
    const { user, dialog, field } = await openWithShortcut(makeSession({ role: 'tenant_admin' }));
    await user.type(field, 'Da');
    const group = await within(dialog).findByRole('group', { name: palette.groups.people });
    const first = await within(group).findByRole('option', { name: /Dale Cooper/ });
    const second = within(group).getByRole('option', { name: /Dana Scully/ });
    // "Da" matches the Dashboard page first; down twice reaches Dana.
    expect(within(dialog).getByRole('option', { name: nav.dashboard })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(first).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(second).toHaveAttribute('aria-selected', 'true');
    expect(field).toHaveAttribute('aria-activedescendant', second.id);
    expect(api.queriesOf('GET /api/users').at(-1)).toEqual(expect.objectContaining({ search: 'Da' }));
    // A tenant has nothing below it: its own people only.
    expect(api.queriesOf('GET /api/users').at(-1)).not.toHaveProperty('include_subtree');
    await user.keyboard('{Enter}');
    await landsOn(`/users/${dana.id}`);
  });

  it("finds people of the whole subtree for a parent's admin, naming the organization of those beyond its own", async () => {
    const own = makeUser({ first_name: 'Dora', last_name: 'Own' });
    const below = makeUser({
      first_name: 'Dina',
      last_name: 'Below',
      email: 'dina@tenant.test',
      organization_id: '00000000-0000-4000-8000-0000000000d1',
      organization: { id: '00000000-0000-4000-8000-0000000000d1', name: 'Lakeside Pharmacy', org_type: 'tenant', status: 'active' },
    });
    const api = mockSearches({ people: [own, below] });
    const { dialog, field, user } = await openWithShortcut(makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Own Agency' }));
    await user.type(field, 'Di');
    const group = await within(dialog).findByRole('group', { name: palette.groups.people });
    expect(await within(group).findByRole('option', { name: /Dina Below/ })).toHaveTextContent('dina@tenant.test · Lakeside Pharmacy');
    expect(api.queriesOf('GET /api/users').at(-1)).toEqual(expect.objectContaining({ search: 'Di', include_subtree: 'true' }));
  });

  it('finds a recent ledger entry by its description and opens the credit ledger', async () => {
    mockSearches({
      entries: [
        entry({ entry_type: 'allocation_received', description: 'Received 500.00 credits from Northwind Partners' }),
        entry({ entry_type: 'consumption', description: 'Usage of the Scheduling agent' }),
      ],
    });
    const { user, dialog, field } = await openWithShortcut(makeSession({ role: 'tenant_admin' }));
    await user.type(field, 'northwind');
    const group = await within(dialog).findByRole('group', { name: palette.groups.ledger }, { timeout: SHELL_LOAD_MS });
    const option = within(group).getByRole('option', { name: /Received 500\.00 credits from Northwind Partners/ });
    expect(within(group).queryByRole('option', { name: /Scheduling/ })).not.toBeInTheDocument();
    await waitFor(() => expect(field).toHaveAttribute('aria-activedescendant', option.id));
    await user.keyboard('{Enter}');
    await landsOn(/^\/credit-ledger$/);
  });

  it('gives a role that may not list organizations or people no such groups, and sends no request for them', async () => {
    const api = mockSearches({
      organizations: [makeOrganization({ name: 'Acme Dental' })],
      people: [makeUser({ first_name: 'Acme', last_name: 'Admin' })],
      entries: [entry({ entry_type: 'consumption', description: 'Usage at Acme' })],
    });
    const { user, dialog, field } = await openWithShortcut(makeSession({ role: 'agency_user', orgType: 'agency', orgName: 'Own Agency' }));
    await user.type(field, 'Acme');
    // The ledger (which the role reads) answers; the debounced searches would have been sent by now.
    await within(dialog).findByRole('group', { name: palette.groups.ledger }, { timeout: SHELL_LOAD_MS });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(within(dialog).queryByRole('group', { name: palette.groups.organizations })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('group', { name: palette.groups.people })).not.toBeInTheDocument();
    expect(api.callsTo('GET /api/organizations')).toHaveLength(0);
    expect(api.callsTo('GET /api/users')).toHaveLength(0);
  });
});

describe('command palette on its first opening', { timeout: 60_000 }, () => {
  it('keeps the keys typed right after Ctrl+K, while its results still load, in its search field', async () => {
    let load = () => {};
    const loading = new Promise<void>((resolve) => {
      load = resolve;
    });
    // The results' chunk arrives only when the test says.
    vi.doMock('./command-palette-body', async (importOriginal) => {
      await loading;
      return importOriginal();
    });
    try {
      // A palette module of its own, whose results no earlier opening (of any test file) has loaded.
      const unopened = './command-palette?first-opening';
      const { CommandPalette } = (await import(/* @vite-ignore */ unopened)) as typeof import('./command-palette');
      const acme = makeOrganization({ name: 'Acme Dental', org_type: 'tenant' });
      const api = mockSearches({ organizations: [acme] });
      sessionStore.set(superAgencyAdmin());
      renderWithProviders(<CommandPalette />);
      const user = userEvent.setup();
      await user.keyboard('{Control>}k{/Control}acme');
      const dialog = screen.getByRole('dialog', { name: palette.title });
      expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();

      load();
      const field = await within(dialog).findByRole('combobox', { name: palette.inputLabel });
      expect(field).toHaveValue('acme');
      expect(field).toHaveFocus();
      await within(dialog).findByRole('option', { name: /Acme Dental/ });
      expect(api.queriesOf('GET /api/organizations')).toEqual([expect.objectContaining({ search: 'acme' })]);
      // Typing goes on in the same field.
      await user.keyboard(' d');
      expect(field).toHaveValue('acme d');
    } finally {
      load();
      vi.doUnmock('./command-palette-body');
    }
  });
});
