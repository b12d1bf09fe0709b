import { WEBHOOK_EVENT_TYPES, WEBHOOKS, type OrgStatus, type WebhookEndpoint } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_REFRESH_MS, SETTLING_REFRESH_MS } from '@/api/live';
import { json, makeSession, mockApi, renderApp, type ApiRoutes, type SessionOptions } from '@/test/helpers';
import { renderSettings } from '@/test/settings-data';
import { CREATE, deliveryOf, endpointOf, endpointPath, LIST } from '@/test/webhook-data';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const w = MESSAGES.webhookPages;
const URL_A = 'https://hooks.example.com/console';
const SECOND_ID = '00000000-0000-4000-8000-0000000000e2';

/** /settings/webhooks opened by a signed-in person whose list answers `endpoints`, other requests from `extra`. */
function renderWebhooks(options: SessionOptions, endpoints: () => WebhookEndpoint[], extra: ApiRoutes = {}, status: OrgStatus = 'active') {
  const session = makeSession(options);
  if (status !== 'active') session.user.organization = { ...session.user.organization, status };
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    [LIST]: () => json(200, { endpoints: endpoints() }),
    ...extra,
  });
  renderApp('/settings/webhooks', { session });
  return api;
}

const admin = { role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' } as const;

beforeAll(() => Promise.all([import('./webhooks-page'), import('@/app/shell/app-shell'), import('@/app/settings-route')]), 30_000);

describe('Settings > Webhooks', { timeout: 20_000 }, () => {
  it("lists the own organization's endpoints: URL, description, events, subtree, state with its reason, failing since, last success and the counts", async () => {
    renderWebhooks(admin, () => [
      endpointOf({ pending: 3, failed_recently: 2 }),
      endpointOf({
        id: SECOND_ID,
        url: 'https://old.example.com/hook',
        description: '',
        event_types: [...WEBHOOK_EVENT_TYPES],
        include_subtree: true,
        enabled: false,
        disabled_reason: 'failing',
        disabled_at: '2025-03-05T08:00:00.000Z',
        failing_since: '2025-03-02T08:00:00.000Z',
        last_success_at: null,
      }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: w.title })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: w.endpointsLabel });
    const [first, second] = within(list).getAllByRole('listitem');

    expect(within(first!).getByRole('heading', { level: 2, name: URL_A })).toBeInTheDocument();
    expect(first).toHaveTextContent('Billing alerts');
    expect(first).toHaveTextContent(w.stateEnabled);
    expect(first).toHaveTextContent('balance.lowbalance.recovered');
    expect(first).toHaveTextContent(`${w.subtreeLabel}${w.subtreeNo}`);
    expect(first).toHaveTextContent(`${w.lastSuccess}${formatDateTime('2025-03-02T09:30:00.000Z')}`);
    expect(first).toHaveTextContent(`${w.failingSince}${w.notFailing}`);
    expect(first).toHaveTextContent(`${w.pending}3`);
    expect(first).toHaveTextContent(`${w.failedRecently}2`);

    expect(within(second!).getByRole('heading', { level: 2, name: 'https://old.example.com/hook' })).toBeInTheDocument();
    expect(second).toHaveTextContent(w.allEvents(WEBHOOK_EVENT_TYPES.length));
    expect(second).toHaveTextContent(`${w.subtreeLabel}${w.subtreeYes}`);
    expect(second).toHaveTextContent(w.stateDisabled);
    expect(second).toHaveTextContent(w.disabledReasons.failing(WEBHOOKS.disableAfterFailingHours));
    expect(second).toHaveTextContent(`${w.failingSince}${formatDateTime('2025-03-02T08:00:00.000Z')}`);
    expect(second).toHaveTextContent(`${w.lastSuccess}${w.never}`);
    // A disabled endpoint is offered Enable and no test event, which the server would refuse.
    expect(within(second!).getByRole('button', { name: `${w.enable} https://old.example.com/hook` })).toBeInTheDocument();
    expect(within(second!).queryByRole('button', { name: new RegExp(w.test) })).not.toBeInTheDocument();
    expect(within(first!).getByRole('button', { name: `${w.disable} ${URL_A}` })).toBeInTheDocument();
    // Each endpoint leads to its delivery log.
    expect(within(first!).getByRole('link', { name: `${w.log} ${URL_A}` })).toHaveAttribute(
      'href',
      `/settings/webhooks/${endpointOf().id}`,
    );
    // The page sits under Settings, and the navigation marks Webhooks.
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(`Settings${w.title}`);
    expect(screen.getByRole('navigation', { name: 'Main' }).querySelector('[aria-current="page"]')).toHaveTextContent(
      MESSAGES.shell.nav.webhooks,
    );
  });

  it('Add endpoint checks the form, sends the URL, events, subtree and state, then shows the secret once with Copy', async () => {
    let endpoints: WebhookEndpoint[] = [];
    const secret = `whsec_${'Q'.repeat(43)}`;
    const api = renderWebhooks(admin, () => endpoints, {
      [CREATE]: () => {
        endpoints = [endpointOf({ include_subtree: true })];
        return json(201, { endpoint: endpoints[0], secret });
      },
    });
    expect(await screen.findByText(w.empty)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: w.add }));
    let dialog = await screen.findByRole('dialog', { name: w.addTitle });

    await user.click(within(dialog).getByRole('button', { name: w.add }));
    expect(await within(dialog).findByText(MESSAGES.webhooks.urlRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(MESSAGES.webhooks.chooseEvents)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(w.url)).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(CREATE)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(w.url), URL_A);
    await user.type(within(dialog).getByLabelText(w.description), 'Billing alerts');
    // A group's checkbox takes all of its events; Select all every event, and again none.
    await user.click(within(dialog).getByRole('checkbox', { name: w.selectAll }));
    expect(within(dialog).getByText(w.eventsChosen(WEBHOOK_EVENT_TYPES.length, WEBHOOK_EVENT_TYPES.length))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: w.selectAll }));
    expect(within(dialog).getByText(w.eventsChosen(0, WEBHOOK_EVENT_TYPES.length))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: w.selectGroup('Balance') }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Credits allocated/ }));
    expect(within(dialog).getByRole('checkbox', { name: w.selectGroup('Credits') })).toBePartiallyChecked();
    await user.click(within(dialog).getByRole('switch', { name: w.subtree }));
    await user.click(within(dialog).getByRole('button', { name: w.add }));

    dialog = await screen.findByRole('dialog', { name: w.secretTitle });
    expect(api.bodiesOf(CREATE)).toEqual([
      {
        url: URL_A,
        description: 'Billing alerts',
        event_types: ['balance.low', 'balance.recovered', 'credits.allocated'],
        include_subtree: true,
        enabled: true,
      },
    ]);
    expect(within(dialog).getAllByText(w.secretWarning).length).toBeGreaterThan(0);
    expect(w.secretWarning).toMatch(/you will not see it again/);
    expect(within(dialog).getByLabelText(w.secretLabel)).toHaveValue(secret);
    await user.click(within(dialog).getByRole('button', { name: w.copy }));
    expect(await navigator.clipboard.readText()).toBe(secret);
    expect(await screen.findByText(w.copied)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: w.done }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The list shows the new endpoint, never its secret; opened again, the dialog starts afresh.
    expect(await screen.findByRole('heading', { level: 2, name: URL_A })).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(secret);
    await user.click(screen.getByRole('button', { name: w.add }));
    expect(await screen.findByRole('dialog', { name: w.addTitle })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
  });

  it("puts the server's refusal of the URL on the URL field (a private address, 422 naming url)", async () => {
    const message = MESSAGES.webhooks.privateAddress('10.0.0.7');
    renderWebhooks(admin, () => [], {
      [CREATE]: () => json(422, { error: { code: 'private_address', message, fields: { url: message } } }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.add }));
    const dialog = await screen.findByRole('dialog', { name: w.addTitle });
    await user.type(within(dialog).getByLabelText(w.url), 'https://10.0.0.7/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: /Balance fell below/ }));
    await user.click(within(dialog).getByRole('button', { name: w.add }));
    const field = within(dialog).getByLabelText(w.url);
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(message);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(w.addFailed);
    // Still the form, with what was typed: nothing was created.
    expect(field).toHaveValue('https://10.0.0.7/hook');
  });

  it('offers a tenant no "organizations below" switch, and sends its endpoints without them', async () => {
    const api = renderWebhooks({ role: 'tenant_admin', orgType: 'tenant' }, () => [], {
      [CREATE]: () => json(201, { endpoint: endpointOf(), secret: 'whsec_x' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.add }));
    const dialog = await screen.findByRole('dialog', { name: w.addTitle });
    expect(within(dialog).queryByRole('switch', { name: w.subtree })).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(w.url), URL_A);
    await user.click(within(dialog).getByRole('checkbox', { name: w.selectAll }));
    await user.click(within(dialog).getByRole('button', { name: w.add }));
    expect(await screen.findByRole('dialog', { name: w.secretTitle })).toBeInTheDocument();
    expect(api.bodiesOf(CREATE)).toEqual([expect.objectContaining({ include_subtree: false, event_types: [...WEBHOOK_EVENT_TYPES] })]);
  });

  it('Rotate secret takes 24 hours of grace unless told otherwise (0 to 72), then shows the new secret once', async () => {
    const secret = `whsec_${'R'.repeat(43)}`;
    const rotate = `POST ${endpointPath()}/rotate`;
    const api = renderWebhooks(admin, () => [endpointOf()], {
      [rotate]: () => json(200, { endpoint: endpointOf(), secret }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${w.rotate} ${URL_A}` }));
    const dialog = await screen.findByRole('dialog', { name: w.rotateTitle });
    const grace = within(dialog).getByLabelText(w.graceHours);
    expect(grace).toHaveValue(WEBHOOKS.defaultRotationGraceHours);
    await user.clear(grace);
    await user.type(grace, '73');
    await user.click(within(dialog).getByRole('button', { name: w.rotate }));
    expect(await within(dialog).findByText(w.graceInvalid(WEBHOOKS.maxRotationGraceHours))).toBeInTheDocument();
    expect(api.callsTo(rotate)).toHaveLength(0);
    await user.clear(grace);
    await user.type(grace, '2');
    await user.click(within(dialog).getByRole('button', { name: w.rotate }));
    const shown = await screen.findByRole('dialog', { name: w.rotatedSecretTitle });
    expect(api.bodiesOf(rotate)).toEqual([{ grace_hours: 2 }]);
    expect(within(shown).getByLabelText(w.secretLabel)).toHaveValue(secret);
  });

  it('says on the card, as soon as the secret is rotated, until when the old secret still signs; not once it has ended', async () => {
    const until = '2099-03-03T10:00:00.000Z';
    let rotated = false;
    const rotate = `POST ${endpointPath()}/rotate`;
    renderWebhooks(admin, () => [endpointOf(rotated ? { previous_secret_expires_at: until } : {})], {
      [rotate]: () => {
        rotated = true;
        return json(200, { endpoint: endpointOf({ previous_secret_expires_at: until }), secret: `whsec_${'R'.repeat(43)}` });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${w.rotate} ${URL_A}` }));
    expect(screen.queryByTestId('old-secret')).not.toBeInTheDocument();
    await user.click(within(await screen.findByRole('dialog', { name: w.rotateTitle })).getByRole('button', { name: w.rotate }));
    await screen.findByRole('dialog', { name: w.rotatedSecretTitle });
    expect(await screen.findByTestId('old-secret')).toHaveTextContent(w.oldSecretSigns(formatDateTime(until)));
  });

  it('shows no old secret whose grace period has ended', async () => {
    renderWebhooks(admin, () => [endpointOf({ previous_secret_expires_at: '2020-01-01T00:00:00.000Z' })]);
    expect(await screen.findByRole('list', { name: w.endpointsLabel })).toBeInTheDocument();
    expect(screen.queryByTestId('old-secret')).not.toBeInTheDocument();
  });

  it('moves the waiting count and the last success on the card without a reload, asking again sooner while a delivery waits', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let delivered = false;
      const api = renderWebhooks(admin, () => [
        delivered ? endpointOf({ pending: 0, last_success_at: '2025-03-04T12:00:05.000Z' }) : endpointOf({ pending: 1 }),
      ]);
      const card = within(await screen.findByRole('list', { name: w.endpointsLabel })).getByRole('listitem');
      expect(card).toHaveTextContent(`${w.pending}1`);
      delivered = true;
      await vi.advanceTimersByTimeAsync(SETTLING_REFRESH_MS);
      await waitFor(() => expect(card).toHaveTextContent(`${w.pending}0`));
      expect(card).toHaveTextContent(`${w.lastSuccess}${formatDateTime('2025-03-04T12:00:05.000Z')}`);
      expect(api.callsTo(LIST)).toHaveLength(2);
      // Nothing waits any more: the next question comes at the ordinary pace.
      await vi.advanceTimersByTimeAsync(SETTLING_REFRESH_MS);
      expect(api.callsTo(LIST)).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
      await waitFor(() => expect(api.callsTo(LIST)).toHaveLength(3));
    } finally {
      vi.useRealTimers();
    }
  });

  it('Edit sends only what changed; Disable, Send test event and Delete (after asking) call their endpoints', async () => {
    let endpoint = endpointOf();
    const api = renderWebhooks(admin, () => (endpoint ? [endpoint] : []), {
      [`PATCH ${endpointPath()}`]: ({ body }) => {
        endpoint = { ...endpoint, ...(body as Partial<WebhookEndpoint>) };
        return json(200, { endpoint });
      },
      [`POST ${endpointPath()}/test`]: () => json(202, { delivery: deliveryOf({ state: 'pending' }) }),
      [`DELETE ${endpointPath()}`]: () => json(200, { endpoint }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${w.edit} ${URL_A}` }));
    const dialog = await screen.findByRole('dialog', { name: w.editTitle });
    expect(within(dialog).getByLabelText(w.url)).toHaveValue(URL_A);
    expect(within(dialog).getByRole('checkbox', { name: w.selectGroup('Balance') })).toBeChecked();
    await user.clear(within(dialog).getByLabelText(w.description));
    await user.type(within(dialog).getByLabelText(w.description), 'Finance');
    await user.click(within(dialog).getByRole('button', { name: w.save }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf(`PATCH ${endpointPath()}`)).toEqual([{ description: 'Finance' }]);

    await user.click(screen.getByRole('button', { name: `${w.test} ${URL_A}` }));
    expect(await screen.findByText(w.testSent)).toBeInTheDocument();
    expect(api.callsTo(`POST ${endpointPath()}/test`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: `${w.disable} ${URL_A}` }));
    expect(await screen.findByText(w.disabledToast)).toBeInTheDocument();
    expect(api.bodiesOf(`PATCH ${endpointPath()}`)[1]).toEqual({ enabled: false });
    expect(await screen.findByRole('button', { name: `${w.enable} ${URL_A}` })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `${w.remove} ${URL_A}` }));
    const confirm = await screen.findByRole('alertdialog', { name: w.removeTitle });
    expect(confirm).toHaveTextContent(w.removeBody(URL_A));
    await user.click(within(confirm).getByRole('button', { name: w.remove }));
    expect(await screen.findByText(w.removed)).toBeInTheDocument();
    expect(api.callsTo(`DELETE ${endpointPath()}`)).toHaveLength(1);
  });

  it("shows a frozen organization's admins their endpoints and logs without any change", async () => {
    renderWebhooks(admin, () => [endpointOf()], {}, 'suspended');
    const list = await screen.findByRole('list', { name: w.endpointsLabel });
    const item = within(list).getByRole('listitem');
    expect(within(item).getByRole('link', { name: `${w.log} ${URL_A}` })).toBeInTheDocument();
    expect(within(item).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: w.add })).not.toBeInTheDocument();
  });

  it('is neither shown nor fetched for the other roles: no menu item, and the route sends them to the dashboard', async () => {
    const session = makeSession({ role: 'agency_manager', orgType: 'agency' });
    const api = mockApi((call) => (call.path === '/api/users/me' ? json(200, session.user) : undefined));
    renderApp('/settings/webhooks', { session });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveTextContent(MESSAGES.shell.nav.webhooks);
    expect(api.callsTo(LIST)).toHaveLength(0);
  });

  it('is linked from the Settings page for the admins', async () => {
    renderSettings(admin);
    const link = await screen.findByRole('link', { name: w.settingsLink });
    expect(link).toHaveAttribute('href', '/settings/webhooks');
  });

  it('is not linked from the Settings page for the other roles', async () => {
    renderSettings({ role: 'agency_manager', orgType: 'agency' });
    expect(await screen.findByTestId('credit-balance')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: w.settingsLink })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: w.title })).not.toBeInTheDocument();
  });
});
