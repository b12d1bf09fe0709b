import { MESSAGES as DOMAIN_MESSAGES, type AccountSession, type Factors } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { MESSAGES } from '../wording';

const w = MESSAGES.security;

// The page is a lazy chunk: load it once before the first test's clock starts.
beforeAll(() => Promise.all([import('./security-page'), import('@/app/shell/app-shell')]), 30_000);

const NONE: Factors = {
  totp: { enrolled: false, enrolled_at: null },
  recovery_codes: { left: 0, created_at: null },
  passkeys: { count: 0 },
};
const ENROLLED: Factors = {
  totp: { enrolled: true, enrolled_at: '2026-03-04T10:00:00Z' },
  recovery_codes: { left: 7, created_at: '2026-03-04T10:00:00Z' },
  passkeys: { count: 0 },
};
const CODES = Array.from({ length: 10 }, (_, index) => `code-${index}-abcd`);
const QR = '<svg xmlns="http://www.w3.org/2000/svg" id="server-qr" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>';

const THIS_ID = '10000000-0000-4000-8000-000000000001';
const OTHER_ID = '10000000-0000-4000-8000-000000000002';
function session(id: string, device: string, current: boolean): AccountSession {
  return {
    id,
    device,
    ip: current ? '203.0.113.5' : null,
    started_at: '2026-03-01T09:00:00Z',
    last_active_at: '2026-03-02T09:00:00Z',
    current,
  };
}

describe('security page: the authenticator app', { timeout: 20_000 }, () => {
  it('sets up the app: password, the QR code as an image and the grouped key, a first code, then the recovery codes once', async () => {
    let factors = NONE;
    const api = mockApi({
      'GET /api/account/factors': () => json(200, factors),
      'GET /api/account/passkeys': () => json(200, { items: [] }),
      'GET /api/account/sessions': () => json(200, { items: [session(THIS_ID, 'Chrome on Linux', true)] }),
      'POST /api/account/factors/totp': () =>
        json(200, { secret: 'JBSWY3DPEHPK3PXPJBSW', otpauth_uri: 'otpauth://totp/x', qr_svg: QR, expires_at: '2026-03-04T10:15:00Z' }),
      'POST /api/account/factors/totp/confirm': () => {
        factors = {
          totp: { enrolled: true, enrolled_at: '2026-03-04T10:00:00Z' },
          recovery_codes: { left: 10, created_at: null },
          passkeys: { count: 0 },
        };
        return json(200, { recovery_codes: CODES });
      },
    });
    renderApp('/account/security', { session: makeSession() });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { level: 1, name: w.title })).toBeInTheDocument();
    expect(await screen.findByText(w.app.notEnrolled)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: w.app.setUp }));
    const password = screen.getByLabelText(w.setup.passwordLabel);
    await waitFor(() => expect(password).toHaveFocus());
    await user.click(screen.getByRole('button', { name: w.setup.continue }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.currentPasswordRequired)).toBeInTheDocument();
    await user.type(password, 'my password');
    await user.click(screen.getByRole('button', { name: w.setup.continue }));

    const qr = await screen.findByRole('img', { name: w.setup.qrAlt });
    expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;base64,${btoa(QR)}`);
    // The server's markup is an image's source, never part of the page.
    expect(document.getElementById('server-qr')).toBeNull();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(w.setup.scanStep)).toHaveFocus());
    const code = screen.getByLabelText(w.setup.codeLabel);
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: w.setup.confirm }));

    const list = await screen.findByRole('list', { name: w.codes.listLabel });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByText(w.codes.saveNow)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: w.codes.copy })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: w.codes.download })).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/account/factors/totp')).toEqual([{ current_password: 'my password' }]);
    expect(api.bodiesOf('POST /api/account/factors/totp/confirm')).toEqual([{ code: '123456' }]);

    await user.click(screen.getByRole('button', { name: w.codes.done }));
    expect(screen.queryByRole('list', { name: w.codes.listLabel })).not.toBeInTheDocument();
    // The status refreshed without a reload.
    expect(await screen.findByText(w.app.recoveryLeft(10))).toBeInTheDocument();
    expect(screen.getByText(/^Set up on /)).toBeInTheDocument();
  });

  it('shows the refusal of a wrong password and of a wrong first code', async () => {
    let startCalls = 0;
    mockApi({
      'GET /api/account/factors': () => json(200, NONE),
      'GET /api/account/passkeys': () => json(200, { items: [] }),
      'GET /api/account/sessions': () => json(200, { items: [] }),
      'POST /api/account/factors/totp': () =>
        ++startCalls === 1
          ? json(400, {
              error: {
                code: 'invalid_request',
                message: DOMAIN_MESSAGES.auth.currentPasswordWrong,
                fields: { current_password: DOMAIN_MESSAGES.auth.currentPasswordWrong },
              },
            })
          : json(200, { secret: 'ABCDEFGH', otpauth_uri: 'otpauth://totp/x', qr_svg: QR, expires_at: '2026-03-04T10:15:00Z' }),
      'POST /api/account/factors/totp/confirm': () => apiError(422, 'code_wrong', DOMAIN_MESSAGES.auth.codeWrong),
    });
    renderApp('/account/security', { session: makeSession() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.app.setUp }));
    await user.type(screen.getByLabelText(w.setup.passwordLabel), 'wrong');
    await user.click(screen.getByRole('button', { name: w.setup.continue }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.currentPasswordWrong)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: w.setup.continue }));
    await user.type(await screen.findByLabelText(w.setup.codeLabel), '000000');
    await user.click(screen.getByRole('button', { name: w.setup.confirm }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.codeWrong)).toBeInTheDocument();
    expect(screen.getByLabelText(w.setup.codeLabel)).toHaveValue('');
  });

  it('makes new recovery codes with a current code, shown once, and removes the app with one', async () => {
    let factors = ENROLLED;
    const api = mockApi({
      'GET /api/account/factors': () => json(200, factors),
      'GET /api/account/passkeys': () => json(200, { items: [] }),
      'GET /api/account/sessions': () => json(200, { items: [] }),
      'POST /api/account/factors/recovery-codes': () => json(200, { recovery_codes: CODES }),
      'POST /api/account/factors/totp/remove': ({ body }) => {
        if ((body as { code: string }).code !== '654321') return apiError(422, 'invalid_code', DOMAIN_MESSAGES.auth.codeWrong);
        factors = NONE;
        return json(200, { ok: true });
      },
    });
    renderApp('/account/security', { session: makeSession() });
    const user = userEvent.setup();
    expect(await screen.findByText(w.app.recoveryLeft(7))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: w.app.newRecoveryCodes }));
    const dialog = await screen.findByRole('dialog', { name: w.regenerate.title });
    expect(within(dialog).getByText(w.regenerate.warning)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(w.regenerate.codeLabel), '123456');
    await user.click(within(dialog).getByRole('button', { name: w.regenerate.confirm }));
    expect(await screen.findByRole('list', { name: w.codes.listLabel })).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/account/factors/recovery-codes')).toEqual([{ code: '123456' }]);
    await user.click(screen.getByRole('button', { name: w.codes.done }));

    await user.click(await screen.findByRole('button', { name: w.app.remove }));
    const remove = await screen.findByRole('dialog', { name: w.remove.title });
    expect(within(remove).getByText(w.remove.warning)).toBeInTheDocument();
    await user.type(within(remove).getByLabelText(w.remove.codeLabel), '111111');
    await user.click(within(remove).getByRole('button', { name: w.remove.confirm }));
    expect(await within(remove).findByText(DOMAIN_MESSAGES.auth.codeWrong)).toBeInTheDocument();
    await user.type(within(remove).getByLabelText(w.remove.codeLabel), '654321');
    await user.click(within(remove).getByRole('button', { name: w.remove.confirm }));
    expect(await screen.findByText(w.remove.removed)).toBeInTheDocument();
    expect(await screen.findByText(w.app.notEnrolled)).toBeInTheDocument();
  });
});

describe('security page: sessions', { timeout: 20_000 }, () => {
  it('marks this session, ends another and then all others, refreshing the list each time', async () => {
    let items = [
      session(THIS_ID, 'Chrome on Linux', true),
      session(OTHER_ID, 'Safari on iOS', false),
      session('10000000-0000-4000-8000-000000000003', 'Firefox on Windows', false),
    ];
    const api = mockApi({
      'GET /api/account/factors': () => json(200, NONE),
      'GET /api/account/passkeys': () => json(200, { items: [] }),
      'GET /api/account/sessions': () => json(200, { items }),
      [`DELETE /api/account/sessions/${OTHER_ID}`]: () => {
        items = items.filter((item) => item.id !== OTHER_ID);
        return json(200, { ended: 1 });
      },
      'POST /api/account/sessions/end-others': () => {
        const ended = items.filter((item) => !item.current).length;
        items = items.filter((item) => item.current);
        return json(200, { ended });
      },
    });
    renderApp('/account/security', { session: makeSession() });
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: w.sessions.title });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    const current = within(list).getAllByRole('listitem')[0]!;
    expect(current).toHaveTextContent('Chrome on Linux');
    expect(within(current).getByText(w.sessions.thisSession)).toBeInTheDocument();
    expect(within(current).queryByRole('button')).not.toBeInTheDocument();
    expect(within(list).getAllByText(w.sessions.unknownAddress)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: `${w.sessions.end} Safari on iOS` }));
    await user.click(await screen.findByRole('button', { name: w.sessions.end }));
    expect(await screen.findByText(w.sessions.ended(1))).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(api.callsTo(`DELETE /api/account/sessions/${OTHER_ID}`)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: w.sessions.endOthers }));
    const confirm = await screen.findByRole('alertdialog', { name: w.sessions.endOthers });
    await user.click(within(confirm).getByRole('button', { name: w.sessions.endOthers }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(await screen.findByText(w.sessions.noOthers)).toBeInTheDocument();
    expect(api.callsTo('POST /api/account/sessions/end-others')).toHaveLength(1);
  });
});

describe('the way to the security page', { timeout: 20_000 }, () => {
  it('is in the profile menu', async () => {
    mockApi((call) =>
      call.path === '/api/account/factors'
        ? json(200, NONE)
        : call.path === '/api/account/sessions' || call.path === '/api/account/passkeys'
          ? json(200, { items: [] })
          : undefined,
    );
    renderApp('/dashboard', { session: makeSession() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /alice@example.test/ }));
    await user.click(await screen.findByRole('menuitem', { name: w.menuItem }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/account\/security$/));
    expect(await screen.findByRole('heading', { level: 1, name: w.title })).toBeInTheDocument();
  });
});
