import { WEBHOOKS, type WebhookDelivery } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp, setViewportWidth, type ApiRoutes } from '@/test/helpers';
import { attemptOf, DELIVERIES, DELIVERY_ID, deliveryOf, ENDPOINT_ID, endpointOf, endpointPath, LIST } from '@/test/webhook-data';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';
import { BODY_PREVIEW_CHARS } from '../components/delivery-log';

const w = MESSAGES.webhookPages;
const REDELIVER = `POST ${endpointPath()}/deliveries/${DELIVERY_ID}/redeliver`;
const REDELIVER_FAILED = `POST ${endpointPath()}/redeliver`;
const SECOND_ID = '00000000-0000-4000-8000-0000000000f2';

/** A failed delivery of a child's event: two attempts, the newest a 500 with a long HTML answer. */
const failed = (): WebhookDelivery =>
  deliveryOf({
    event: {
      id: '00000000-0000-4000-8000-0000000000fa',
      type: 'usage.refused',
      created_at: '2025-03-03T12:00:00.000Z',
      organization: { id: '00000000-0000-4000-8000-0000000000c1', name: 'Harbor Dental' },
    },
    state: 'failed',
    attempts: 2,
    next_attempt_at: null,
    delivered_at: null,
    recent_attempts: [
      attemptOf({
        attempted_at: '2025-03-03T12:01:00.000Z',
        status_code: 500,
        response_ms: 843,
        response_body: `<html>${'x'.repeat(400)}</html>`,
      }),
      attemptOf({
        attempted_at: '2025-03-03T12:00:05.000Z',
        status_code: null,
        response_ms: null,
        error: 'Timed out after 10 s',
        response_body: null,
      }),
    ],
  });

function renderLog(routes: ApiRoutes, { frozen = false } = {}) {
  const session = makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' });
  if (frozen) session.user.organization = { ...session.user.organization, status: 'suspended' };
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    [LIST]: () => json(200, { endpoints: [endpointOf()] }),
    ...routes,
  });
  renderApp(`/settings/webhooks/${ENDPOINT_ID}`, { session });
  return api;
}

beforeAll(() => Promise.all([import('./webhook-deliveries-page'), import('@/app/shell/app-shell')]), 30_000);
afterEach(() => setViewportWidth(1024));

describe("an endpoint's delivery log", { timeout: 20_000 }, () => {
  it('lists each delivery: event, organization, time, state, attempts, last status, response time and next attempt', async () => {
    renderLog({
      [DELIVERIES]: () =>
        json(200, {
          deliveries: [
            deliveryOf({
              id: SECOND_ID,
              state: 'pending',
              attempts: 3,
              next_attempt_at: '2025-03-04T10:00:00.000Z',
              delivered_at: null,
              recent_attempts: [attemptOf({ status_code: 503, response_ms: 2100 })],
            }),
            failed(),
          ],
          next_cursor: null,
        }),
    });
    const table = await screen.findByRole('table', { name: w.deliveriesLabel });
    expect(screen.getByRole('heading', { level: 1, name: w.logTitle })).toBeInTheDocument();
    expect(screen.getByText(w.logSubtitle('https://hooks.example.com/console', WEBHOOKS.retentionDays))).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([w.eventType, w.organization, w.time, w.state, w.attempts, w.lastStatus, w.lastResponseTime, w.nextAttempt, w.redeliver]);
    const [pending, failing] = within(table).getAllByRole('row').slice(1);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(cells(pending!).slice(1, 8)).toEqual([
      'Acme Corporation',
      formatDateTime('2025-03-02T09:29:58.000Z'),
      w.states.pending,
      '3',
      '503',
      w.ms(2100),
      formatDateTime('2025-03-04T10:00:00.000Z'),
    ]);
    expect(cells(failing!).slice(1, 8)).toEqual([
      'Harbor Dental',
      formatDateTime('2025-03-03T12:00:00.000Z'),
      w.states.failed,
      '2',
      '500',
      w.ms(843),
      '–',
    ]);
    expect(cells(failing!)[0]).toMatch(/^usage\.refused/);
  });

  it("opens a delivery to its attempts, the receiver's answer cut short, and Redeliver sends it again", async () => {
    let redelivered = false;
    const api = renderLog({
      [DELIVERIES]: () =>
        json(200, {
          deliveries: [
            redelivered ? { ...failed(), state: 'pending', attempts: 3, next_attempt_at: '2025-03-05T00:00:00.000Z' } : failed(),
          ],
          next_cursor: null,
        }),
      [REDELIVER]: () => {
        redelivered = true;
        return json(202, { delivery: { ...failed(), state: 'pending' } });
      },
    });
    const user = userEvent.setup();
    const toggle = await screen.findByRole('button', { name: new RegExp(`^${w.showAttempts}: usage\\.refused`) });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('list', { name: w.attemptsOf('usage.refused') })).not.toBeInTheDocument();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const attempts = screen.getByRole('list', { name: w.attemptsOf('usage.refused') });
    expect(toggle).toHaveAttribute('aria-controls', attempts.id);
    const [newest, oldest] = within(attempts).getAllByRole('listitem');
    expect(newest).toHaveTextContent(formatDateTime('2025-03-03T12:01:00.000Z'));
    expect(newest).toHaveTextContent(w.attemptStatus(500));
    expect(newest).toHaveTextContent(w.ms(843));
    const body = newest!.querySelector('pre')!;
    expect(body.textContent).toBe(`${`<html>${'x'.repeat(400)}</html>`.slice(0, BODY_PREVIEW_CHARS)}…`);
    expect(body).toHaveClass('whitespace-pre-wrap', 'break-all', 'font-mono');
    expect(oldest).toHaveTextContent(w.attemptStatus(null));
    expect(oldest).toHaveTextContent('Timed out after 10 s');

    await user.click(screen.getByRole('button', { name: new RegExp(`^${w.redeliver}: usage\\.refused`) }));
    expect(await screen.findByText(w.redelivered)).toBeInTheDocument();
    expect(api.callsTo(REDELIVER)).toHaveLength(1);
    // The log is asked again and shows the delivery waiting for its new attempt.
    const row = await screen.findByRole('row', { name: new RegExp(w.states.pending) });
    expect(row).toHaveTextContent(formatDateTime('2025-03-05T00:00:00.000Z'));
    expect(api.callsTo(DELIVERIES).length).toBeGreaterThanOrEqual(2);
  });

  it('Redeliver failed since… sends the chosen time (24 hours ago at first) and says how many went again', async () => {
    const api = renderLog({
      [DELIVERIES]: () => json(200, { deliveries: [failed()], next_cursor: null }),
      [REDELIVER_FAILED]: () => json(202, { redelivered: 4 }),
    });
    const user = userEvent.setup();
    const since = await screen.findByLabelText<HTMLInputElement>(w.redeliverSince);
    const shown = new Date(since.value).getTime();
    // The field starts 24 hours back, to the minute.
    expect(Math.abs(Date.now() - 24 * 3_600_000 - shown)).toBeLessThan(120_000);
    await user.clear(since);
    await user.type(since, '2025-03-01T08:30');
    await user.click(screen.getByRole('button', { name: w.redeliverSinceButton }));
    expect(await screen.findByText(w.redeliveredCount(4))).toBeInTheDocument();
    expect(api.bodiesOf(REDELIVER_FAILED)).toEqual([{ since: new Date('2025-03-01T08:30').toISOString() }]);
  });

  it('filters by state and pages with Load more through next_cursor', async () => {
    const api = renderLog({
      [DELIVERIES]: ({ query }) =>
        json(
          200,
          query.cursor
            ? { deliveries: [deliveryOf({ id: SECOND_ID, state: 'failed' })], next_cursor: null }
            : { deliveries: [failed()], next_cursor: 'c2' },
        ),
    });
    const user = userEvent.setup();
    await screen.findByRole('table', { name: w.deliveriesLabel });
    await user.click(screen.getByRole('button', { name: w.loadMore }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: w.loadMore })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(w.stateFilter), w.states.failed);
    await waitFor(() => expect(api.queriesOf(DELIVERIES)).toContainEqual({ state: 'failed' }));
    expect(api.queriesOf(DELIVERIES).slice(0, 2)).toEqual([{}, { cursor: 'c2' }]);
  });

  it('shows each delivery as a card on a narrow screen, opening to its attempts', async () => {
    setViewportWidth(390);
    renderLog({ [DELIVERIES]: () => json(200, { deliveries: [failed()], next_cursor: null }) });
    const list = await screen.findByRole('list', { name: w.deliveriesLabel });
    const card = within(list).getAllByRole('listitem')[0]!;
    expect(card).toHaveTextContent('usage.refused');
    expect(card).toHaveTextContent(`${w.organization}Harbor Dental`);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await userEvent.setup().click(within(card).getByRole('button', { name: new RegExp(`^${w.showAttempts}`) }));
    expect(within(card).getByRole('list', { name: w.attemptsOf('usage.refused') })).toBeInTheDocument();
  });

  it("lets a frozen organization's admins read the log, without Redeliver", async () => {
    const api = renderLog({ [DELIVERIES]: () => json(200, { deliveries: [failed()], next_cursor: null }) }, { frozen: true });
    expect(await screen.findByRole('table', { name: w.deliveriesLabel })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: new RegExp(`^${w.redeliver}`) })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(w.redeliverSince)).not.toBeInTheDocument();
    expect(api.callsTo(REDELIVER)).toHaveLength(0);
  });

  it('says so when the endpoint is not in the list (deleted meanwhile), and asks for no log', async () => {
    const api = mockApi({
      'GET /api/users/me': () => json(200, makeSession({ role: 'agency_admin', orgType: 'agency' }).user),
      [LIST]: () => json(200, { endpoints: [] }),
    });
    renderApp(`/settings/webhooks/${ENDPOINT_ID}`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await screen.findByText(w.endpointNotFound)).toBeInTheDocument();
    expect(api.callsTo(DELIVERIES)).toHaveLength(0);
  });
});
