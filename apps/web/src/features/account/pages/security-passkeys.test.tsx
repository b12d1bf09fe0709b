import { MESSAGES as DOMAIN_MESSAGES, type Factors, type Passkey } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { browserPasskeys } from '@/lib/passkey';
import { MESSAGES } from '../wording';

// The browser's passkey prompts: what they answer is set per test.
const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
const realBrowser = { ...browserPasskeys };
beforeAll(() => Object.assign(browserPasskeys, browser));
afterAll(() => Object.assign(browserPasskeys, realBrowser));

const w = MESSAGES.security.passkeys;

beforeAll(() => Promise.all([import('./security-page'), import('@/app/shell/app-shell')]), 30_000);
beforeEach(() => {
  browser.startRegistration.mockReset();
  browser.startAuthentication.mockReset();
});

const FACTORS: Factors = {
  totp: { enrolled: false, enrolled_at: null },
  recovery_codes: { left: 0, created_at: null },
  passkeys: { count: 0 },
};
const REG_OPTIONS = {
  challenge: 'reg-challenge',
  rp: { name: 'Organization Console', id: 'localhost' },
  user: { id: 'dXNlcg', name: 'alice@example.test', displayName: 'Alice' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
};
const REG_ANSWER = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'Y2RK', attestationObject: 'YXR0', transports: ['internal'] },
  clientExtensionResults: {},
};
const AUTH_ANSWER = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'Y2RK', authenticatorData: 'YXV0aA', signature: 'c2ln' },
  clientExtensionResults: {},
};
const KEY: Passkey = {
  id: '20000000-0000-4000-8000-000000000001',
  name: 'Work laptop',
  created_at: '2026-03-04T10:00:00Z',
  last_used_at: null,
};
const CODES = Array.from({ length: 10 }, (_, index) => `code-${index}-abcd`);

function api(passkeys: Passkey[], extra: Record<string, () => Response> = {}) {
  return mockApi({
    'GET /api/account/factors': () => json(200, FACTORS),
    'GET /api/account/sessions': () => json(200, { items: [] }),
    'GET /api/account/passkeys': () => json(200, { items: passkeys }),
    ...extra,
  });
}

describe('security page: passkeys', { timeout: 20_000 }, () => {
  it('adds a passkey: password and name, the browser makes it, and a first factor shows recovery codes', async () => {
    let items: Passkey[] = [];
    browser.startRegistration.mockResolvedValue(REG_ANSWER);
    const calls = api(items, {
      'GET /api/account/passkeys': () => json(200, { items }),
      'POST /api/account/passkeys/registration-options': () => json(200, REG_OPTIONS),
      'POST /api/account/passkeys': () => {
        items = [KEY];
        return json(200, { passkey: KEY, recovery_codes: CODES });
      },
    });
    renderApp('/account/security', { session: makeSession() });
    const user = userEvent.setup();
    expect(await screen.findByText(w.none)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: w.add }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: w.continue }));
    expect(await within(dialog).findByText(DOMAIN_MESSAGES.auth.currentPasswordRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(DOMAIN_MESSAGES.auth.passkeyNameRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(w.passwordLabel), 'my password');
    await user.type(within(dialog).getByLabelText(w.nameLabel), 'Work laptop');
    await user.click(within(dialog).getByRole('button', { name: w.continue }));

    expect(await screen.findByRole('list', { name: MESSAGES.security.codes.listLabel })).toBeInTheDocument();
    expect(calls.bodiesOf('POST /api/account/passkeys/registration-options')).toEqual([{ current_password: 'my password' }]);
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: REG_OPTIONS });
    expect(calls.bodiesOf('POST /api/account/passkeys')).toEqual([{ name: 'Work laptop', response: REG_ANSWER }]);
    await user.click(screen.getByRole('button', { name: MESSAGES.security.codes.done }));
    expect(await screen.findByText('Work laptop')).toBeInTheDocument();
    expect(screen.getByText(w.never)).toBeInTheDocument();
  });

  it("keeps the dialog open with a clear message when the person cancels the browser's prompt", async () => {
    browser.startRegistration.mockRejectedValue(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }));
    const calls = api([], { 'POST /api/account/passkeys/registration-options': () => json(200, REG_OPTIONS) });
    renderApp('/account/security', { session: makeSession() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: w.add }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(w.passwordLabel), 'my password');
    await user.type(within(dialog).getByLabelText(w.nameLabel), 'Phone');
    await user.click(within(dialog).getByRole('button', { name: w.continue }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(DOMAIN_MESSAGES.auth.passkeyCancelled);
    expect(calls.bodiesOf('POST /api/account/passkeys')).toEqual([]);
  });

  it('renames a passkey, and removes one with a code or with a passkey', async () => {
    const other: Passkey = { ...KEY, id: '20000000-0000-4000-8000-000000000002', name: 'Phone', last_used_at: '2026-03-05T08:00:00Z' };
    browser.startAuthentication.mockResolvedValue(AUTH_ANSWER);
    const calls = api([KEY, other], {
      [`PATCH /api/account/passkeys/${KEY.id}`]: () => json(200, { ...KEY, name: 'Desk' }),
      [`POST /api/account/passkeys/${KEY.id}/remove`]: () => apiError(422, 'code_wrong', DOMAIN_MESSAGES.auth.codeWrong),
      'POST /api/account/passkeys/check-options': () => json(200, { challenge: 'check', allowCredentials: [] }),
      [`POST /api/account/passkeys/${other.id}/remove`]: () => json(200, { ok: true }),
    });
    renderApp('/account/security', { session: makeSession() });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: w.renameAria('Work laptop') }));
    let dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText(w.nameLabel);
    await user.clear(name);
    await user.type(name, 'Desk');
    await user.click(within(dialog).getByRole('button', { name: w.save }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.bodiesOf(`PATCH /api/account/passkeys/${KEY.id}`)).toEqual([{ name: 'Desk' }]);

    await user.click(screen.getByRole('button', { name: w.removeAria('Work laptop') }));
    dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(w.codeLabel), 'abcde-fghjk');
    await user.click(within(dialog).getByRole('button', { name: w.remove }));
    expect(await within(dialog).findByText(DOMAIN_MESSAGES.auth.codeWrong)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: MESSAGES.security.cancel }));

    await user.click(screen.getByRole('button', { name: w.removeAria('Phone') }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: w.usePasskey }));
    expect(await screen.findByText(w.removed)).toBeInTheDocument();
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'check', allowCredentials: [] } });
    expect(calls.bodiesOf(`POST /api/account/passkeys/${other.id}/remove`)).toEqual([{ response: AUTH_ANSWER }]);
  });
});
