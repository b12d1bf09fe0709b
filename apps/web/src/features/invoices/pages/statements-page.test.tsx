import { CHAIN_BREAK_LABELS, STATEMENT_GROUP_LABELS } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { json, makeSession, mockApi, renderApp, type ApiCall, type SessionOptions } from '@/test/helpers';
import { ledgerPage } from '@/test/credit-data';
import { CHILD_ID, CODE, statementOf, statementPath, verificationOf } from '@/test/invoice-data';
import { makeOrganization } from '@/test/organization-data';
import { MESSAGES } from '../wording';
import { lastMonth, monthLabel, recentMonths } from '../format';

const s = MESSAGES.invoicePages.statements;
const admin = { role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' } as const;

/** The console at `path`; the statement and verify requests answered by `answer`, the rest as a quiet 404. */
function renderStatements(options: SessionOptions, answer: (call: ApiCall) => Response | undefined, path = '/statements') {
  const session = makeSession(options);
  const api = mockApi((call) => {
    if (call.path === '/api/users/me') return json(200, session.user);
    return answer(call);
  });
  renderApp(path, { session });
  return api;
}

const statements = (call: ApiCall, month = lastMonth()) =>
  call.path === statementPath(month) ? json(200, statementOf({ month })) : undefined;

beforeAll(() => Promise.all([import('./statements-page'), import('@/app/shell/app-shell')]), 30_000);

describe('Statements', { timeout: 20_000 }, () => {
  it("shows last month's statement of the own organization: balances, the movements grouped and the verification code to copy", async () => {
    const api = renderStatements(admin, (call) => statements(call));
    expect(await screen.findByRole('heading', { level: 1, name: s.title })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: `Northwind · ${monthLabel(lastMonth())}` })).toBeInTheDocument();
    expect(api.callsTo(`GET ${statementPath(lastMonth())}`)).toHaveLength(1);
    expect(screen.getByLabelText(s.month)).toHaveValue(lastMonth());

    expect(screen.getByText(s.opening).nextElementSibling).toHaveTextContent('1,000.00 credits');
    expect(screen.getByText(s.closing).nextElementSibling).toHaveTextContent('1,450.00 credits');
    expect(screen.getByText(s.creditsIn).nextElementSibling).toHaveTextContent('5,000.00 credits');
    expect(screen.getByText(s.creditsOut).nextElementSibling).toHaveTextContent('-4,550.00 credits');
    expect(screen.queryByText(s.partial)).not.toBeInTheDocument();

    const [, received, consumption] = within(screen.getByRole('table', { name: s.groupsLabel })).getAllByRole('row');
    expect(received).toHaveTextContent(STATEMENT_GROUP_LABELS.allocation_received);
    expect(received).toHaveTextContent('Big Super Agency');
    expect(received).toHaveTextContent('5,000.00');
    expect(consumption).toHaveTextContent(STATEMENT_GROUP_LABELS.consumption);
    expect(consumption).toHaveTextContent('Support Bot');
    expect(consumption).toHaveTextContent('120.5000');
    expect(consumption).toHaveTextContent('0.500000');
    expect(consumption).toHaveTextContent('40');
    expect(consumption).toHaveTextContent('-60.25');

    expect(screen.getByTestId('verification-code')).toHaveTextContent(CODE);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: s.copyCode }));
    expect(await navigator.clipboard.readText()).toBe(CODE);
  });

  it('says when the month has not ended, and asks again for another month', async () => {
    const [current, , earlier] = recentMonths(3);
    const api = renderStatements(admin, (call) =>
      call.path === statementPath(lastMonth())
        ? json(200, statementOf({ month: lastMonth() }))
        : call.path === statementPath(current!)
          ? json(200, statementOf({ month: current!, partial: true }))
          : statements(call, earlier!),
    );
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText(s.month), current!);
    expect(await screen.findByText(s.partial)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`month=${current}`);
    await user.selectOptions(screen.getByLabelText(s.month), earlier!);
    await waitFor(() => expect(api.callsTo(`GET ${statementPath(earlier!)}`)).toHaveLength(1));
  });

  it("reads a child's statement by ?organization_id=, as its ledger is read", async () => {
    const api = renderStatements(
      admin,
      (call) => {
        if (call.path === `/api/organizations/${CHILD_ID}`)
          return json(200, makeOrganization({ id: CHILD_ID, name: 'Dental Clinic', org_type: 'tenant' }));
        if (call.path === statementPath(lastMonth(), CHILD_ID)) {
          return json(200, statementOf({ organization: { id: CHILD_ID, name: 'Dental Clinic', org_type: 'tenant' }, month: lastMonth() }));
        }
        return undefined;
      },
      `/statements?organization_id=${CHILD_ID}`,
    );
    expect(await screen.findByRole('heading', { level: 2, name: `Dental Clinic · ${monthLabel(lastMonth())}` })).toBeInTheDocument();
    expect(await screen.findByText(s.subtitle('Dental Clinic'))).toBeInTheDocument();
    expect(api.callsTo(`GET ${statementPath(lastMonth())}`)).toHaveLength(0);
  });

  it('Verify checks a pasted code: its form first, then the answer in words, matching or naming the first broken entry', async () => {
    const verify = `GET ${statementPath(lastMonth())}/verify`;
    let answer = verificationOf({ month: lastMonth() });
    const api = renderStatements(admin, (call) =>
      call.path === `${statementPath(lastMonth())}/verify` ? json(200, answer) : statements(call),
    );
    const user = userEvent.setup();
    const field = await screen.findByLabelText(s.verifyLabel);
    await user.type(field, 'not-a-code');
    await user.click(screen.getByRole('button', { name: s.verify }));
    expect(await screen.findByText(MESSAGES.invoices.codeInvalid)).toBeInTheDocument();
    expect(api.callsTo(verify)).toHaveLength(0);

    await user.clear(field);
    await user.type(field, CODE.toUpperCase());
    await user.click(screen.getByRole('button', { name: s.verify }));
    expect(await screen.findByText(s.matches(42))).toBeInTheDocument();
    expect(api.queriesOf(verify)).toEqual([{ code: CODE }]);

    answer = verificationOf({
      month: lastMonth(),
      head: 'cd'.repeat(32),
      matches: false,
      chain: { whole: false, checked: 17, first_broken: { id: '00000000-0000-4000-8000-0000000003a1', seq: '17', reason: 'edited' } },
    });
    await user.click(screen.getByRole('button', { name: s.verify }));
    expect(await screen.findByText(s.noMatch)).toBeInTheDocument();
    expect(screen.getByText(s.broken('17', '00000000-0000-4000-8000-0000000003a1', CHAIN_BREAK_LABELS.edited))).toBeInTheDocument();
  });

  it('downloads the statement as CSV with the session', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:statement'), revokeObjectURL: vi.fn() }));
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const api = renderStatements(admin, (call) =>
      call.path === `${statementPath(lastMonth())}/csv`
        ? new Response('kind,amount\r\n', {
            status: 200,
            headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="statement.csv"' },
          })
        : statements(call),
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: s.downloadCsv }));
    await waitFor(() => expect(names).toEqual(['statement.csv']));
    expect(api.callsTo(`GET ${statementPath(lastMonth())}/csv`)).toHaveLength(1);
    click.mockRestore();
  });

  it('is linked from the credit ledger, for the organization the ledger shows', async () => {
    renderStatements(
      admin,
      (call) => {
        if (call.path === '/api/credits/ledger') return json(200, ledgerPage([]));
        if (call.path === `/api/organizations/${CHILD_ID}`) return json(200, makeOrganization({ id: CHILD_ID, name: 'Dental Clinic' }));
        return undefined;
      },
      `/credit-ledger?org=${CHILD_ID}`,
    );
    expect(await screen.findByRole('link', { name: s.link })).toHaveAttribute('href', `/statements?organization_id=${CHILD_ID}`);
  });
});
