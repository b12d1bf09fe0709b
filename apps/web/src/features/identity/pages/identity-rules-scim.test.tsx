import {
  ERROR_CODES,
  MESSAGES as DOMAIN_MESSAGES,
  createdScimTokenSchema,
  identityViewSchema,
  scimCallListSchema,
  scimTokenListSchema,
  type IdentityView,
  type ScimToken,
} from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityQueries } from '@/api/identity';
import { LIVE_REFRESH_MS } from '@/api/live';
import { apiError, json } from '@/test/helpers';
import {
  ADMIN_ID,
  IDENTITY_PATHS,
  identityViewOf,
  PROVIDER,
  renderIdentity,
  scimCallOf,
  scimTokenOf,
  TOKEN_ID,
} from '@/test/identity-data';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const w = MESSAGES.identityPages;
const r = w.rules;
const s = w.scim;
const c = w.calls;
const admin = { role: 'tenant_admin', orgType: 'tenant', orgName: 'Acme Corporation' } as const;
const SECRET = `scim_1a2b3c4d${'x'.repeat(40)}`;
const BASE_URL = 'https://console.example.com/scim/v2';

beforeAll(() => Promise.all([import('./identity-page'), import('@/app/shell/app-shell')]), 30_000);

const valid = (view: IdentityView) => identityViewSchema.parse(view);
const tokensOf = (items: ScimToken[]) => json(200, scimTokenListSchema.parse({ items }));

describe('Settings > Identity: sign-in rules', { timeout: 20_000 }, () => {
  it('sets just-in-time members with a role of the organization, enforcement and the break-glass admin', async () => {
    let view = valid(identityViewOf({ provider: PROVIDER }));
    const api = renderIdentity(admin, () => view, {
      [IDENTITY_PATHS.settings]: ({ body }) => {
        const set = body as { jit_role: string | null; enforce_sso: boolean; break_glass_user_id: string | null };
        view = valid({ ...view, jit_role: set.jit_role, enforce_sso: set.enforce_sso, break_glass: view.admins[0]! });
        return json(200, view);
      },
    });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: r.title });
    expect(within(form).getByRole('switch', { name: r.jit })).not.toBeChecked();
    expect(within(form).queryByLabelText(r.jitRole)).not.toBeInTheDocument();
    await user.click(within(form).getByRole('switch', { name: r.jit }));
    // Only the roles the view allows: never an admin role.
    const role = within(form).getByLabelText(r.jitRole);
    expect(
      within(role)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Tenant User', 'Tenant Manager']);
    await user.selectOptions(role, 'tenant_manager');
    await user.click(within(form).getByRole('switch', { name: r.enforce }));
    const breakGlass = within(form).getByLabelText(r.breakGlass);
    expect(
      within(breakGlass)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([r.breakGlassNone, 'Alice Admin (alice@example.test)', 'bob@example.test']);
    await user.selectOptions(breakGlass, ADMIN_ID);
    await user.click(within(form).getByRole('button', { name: r.save }));
    expect(await screen.findByText(r.saved)).toBeInTheDocument();
    expect(api.bodiesOf(IDENTITY_PATHS.settings)).toEqual([
      { jit_role: 'tenant_manager', enforce_sso: true, break_glass_user_id: ADMIN_ID },
    ]);
    expect(await screen.findByRole('switch', { name: r.enforce })).toBeChecked();
  });

  it('asks the person to confirm it is them when the server wants a fresh proof, then saves', async () => {
    let steppedUp = false;
    const api = renderIdentity(admin, () => valid(identityViewOf({ provider: PROVIDER })), {
      [IDENTITY_PATHS.settings]: () =>
        steppedUp
          ? json(200, identityViewOf({ provider: PROVIDER, enforce_sso: true }))
          : apiError(401, ERROR_CODES.stepUpRequired, DOMAIN_MESSAGES.auth.stepUpRequired),
      'GET /api/auth/step-up': () => json(200, { methods: ['password'], fresh_until: null }),
      'POST /api/auth/step-up': () => {
        steppedUp = true;
        return json(200, { fresh_until: 1_900_000_000 });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: r.enforce }));
    await user.click(screen.getByRole('button', { name: r.save }));
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.stepUp.title });
    await user.type(within(dialog).getByLabelText(MESSAGES.stepUp.passwordLabel), 'the password');
    await user.click(within(dialog).getByRole('button', { name: MESSAGES.stepUp.submit }));
    expect(await screen.findByText(r.saved)).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.settings)).toHaveLength(2);
  });

  it("shows the server's refusal in place, the field's beside it", async () => {
    renderIdentity(admin, () => valid(identityViewOf({ provider: PROVIDER })), {
      [IDENTITY_PATHS.settings]: () =>
        json(422, {
          error: {
            code: 'validation_error',
            message: DOMAIN_MESSAGES.identity.breakGlassRequired,
            fields: { break_glass_user_id: DOMAIN_MESSAGES.identity.breakGlassRequired },
          },
        }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: r.enforce }));
    await user.click(screen.getByRole('button', { name: r.save }));
    expect(await screen.findByText(r.saveFailed)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByLabelText(r.breakGlass)).toHaveAccessibleDescription(
        `${r.breakGlassHelp} ${DOMAIN_MESSAGES.identity.breakGlassRequired}`,
      ),
    );
    expect(screen.getByLabelText(r.breakGlass)).toHaveAttribute('aria-invalid', 'true');
    // Nothing was saved: the switch stays as the admin set it.
    expect(screen.getByRole('switch', { name: r.enforce })).toBeChecked();
  });
});

describe('Settings > Identity: SCIM tokens', { timeout: 20_000 }, () => {
  it('lists the tokens: name, prefix, creator, last use and state, with Rotate and Revoke for live ones', async () => {
    const revoked = scimTokenOf({
      id: '00000000-0000-4000-8000-0000000000c2',
      name: 'Old',
      revoked_at: '2025-03-02T10:00:00.000Z',
      last_used_at: null,
    });
    renderIdentity(admin, undefined, { [IDENTITY_PATHS.tokens]: () => tokensOf([scimTokenOf(), revoked]) });
    const table = await screen.findByRole('table', { name: s.listLabel });
    const [, live, old] = within(table).getAllByRole('row');
    expect(live).toHaveTextContent('Okta provisioning');
    expect(live).toHaveTextContent('scim_1a2b3c4d');
    expect(live).toHaveTextContent(s.createdBy('Alice Admin'));
    expect(live).toHaveTextContent(formatDateTime('2025-03-03T08:15:00.000Z'));
    expect(live).toHaveTextContent(s.live);
    expect(within(live!).getByRole('button', { name: `${s.rotate} Okta provisioning` })).toBeInTheDocument();
    expect(within(live!).getByRole('button', { name: `${s.revoke} Okta provisioning` })).toBeInTheDocument();
    expect(old).toHaveTextContent(s.revokedOn(formatDateTime('2025-03-02T10:00:00.000Z')));
    expect(old).toHaveTextContent(w.never);
    expect(within(old!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('creates a token and shows its secret and the base URL once, each with Copy', async () => {
    let items: ScimToken[] = [];
    const api = renderIdentity(admin, undefined, {
      [IDENTITY_PATHS.tokens]: () => tokensOf(items),
      [IDENTITY_PATHS.createToken]: () => {
        items = [scimTokenOf({ last_used_at: null })];
        return json(201, createdScimTokenSchema.parse({ token: items[0], secret: SECRET, base_url: BASE_URL }));
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByText(s.none)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: s.create }));
    let dialog = await screen.findByRole('dialog', { name: s.createTitle });
    await user.click(within(dialog).getByRole('button', { name: s.create }));
    expect(await within(dialog).findByText(DOMAIN_MESSAGES.identity.scimTokenNameRequired)).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.createToken)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(s.name), 'Okta provisioning');
    await user.click(within(dialog).getByRole('button', { name: s.create }));

    dialog = await screen.findByRole('dialog', { name: s.secretTitle });
    expect(api.bodiesOf(IDENTITY_PATHS.createToken)).toEqual([{ name: 'Okta provisioning' }]);
    expect(dialog).toHaveTextContent(SECRET);
    expect(dialog).toHaveTextContent(BASE_URL);
    await user.click(within(dialog).getByRole('button', { name: w.copyAria(s.baseUrl) }));
    expect(await navigator.clipboard.readText()).toBe(BASE_URL);
    await user.click(within(dialog).getByRole('button', { name: w.copyAria('token') }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(within(dialog).getByRole('button', { name: s.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
    expect(await screen.findByRole('table', { name: s.listLabel })).toHaveTextContent('Okta provisioning');
  });

  it('rotates a token, showing the new secret once, and revokes one once confirmed', async () => {
    let items = [scimTokenOf()];
    const api = renderIdentity(admin, undefined, {
      [IDENTITY_PATHS.tokens]: () => tokensOf(items),
      [IDENTITY_PATHS.rotate(TOKEN_ID)]: () =>
        json(200, { token: scimTokenOf({ rotated_at: '2025-03-04T10:00:00.000Z' }), secret: `${SECRET}2`, base_url: BASE_URL }),
      [IDENTITY_PATHS.revoke(TOKEN_ID)]: () => {
        items = [scimTokenOf({ revoked_at: '2025-03-04T11:00:00.000Z' })];
        return json(200, items[0]);
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${s.rotate} Okta provisioning` }));
    let dialog = await screen.findByRole('dialog', { name: s.rotateTitle('Okta provisioning') });
    await user.click(within(dialog).getByRole('button', { name: s.rotate }));
    dialog = await screen.findByRole('dialog', { name: s.rotatedTitle });
    expect(dialog).toHaveTextContent(`${SECRET}2`);
    await user.click(within(dialog).getByRole('button', { name: s.done }));
    expect(api.callsTo(IDENTITY_PATHS.rotate(TOKEN_ID))).toHaveLength(1);

    await user.click(await screen.findByRole('button', { name: `${s.revoke} Okta provisioning` }));
    await user.click(
      within(await screen.findByRole('alertdialog', { name: s.revokeTitle('Okta provisioning') })).getByRole('button', { name: s.revoke }),
    );
    expect(await screen.findByText(s.revoked('Okta provisioning'))).toBeInTheDocument();
    expect(await screen.findByText(s.revokedOn(formatDateTime('2025-03-04T11:00:00.000Z')))).toBeInTheDocument();
  });

  it('offers no Create once the organization has the most live tokens it may', async () => {
    const five = Array.from({ length: 5 }, (_, i) => scimTokenOf({ id: `00000000-0000-4000-8000-0000000000f${i}`, name: `T${i}` }));
    renderIdentity(admin, undefined, { [IDENTITY_PATHS.tokens]: () => tokensOf(five) });
    expect(await screen.findByText(s.limitReached(5))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: s.create })).toBeDisabled();
  });

  it('says why a refused token was not made, in the dialog', async () => {
    renderIdentity(admin, undefined, {
      [IDENTITY_PATHS.createToken]: () => apiError(422, 'too_many', DOMAIN_MESSAGES.identity.tooManyScimTokens(5)),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: s.create }));
    const dialog = await screen.findByRole('dialog', { name: s.createTitle });
    await user.type(within(dialog).getByLabelText(s.name), 'Okta');
    await user.click(within(dialog).getByRole('button', { name: s.create }));
    expect(await within(dialog).findByText(DOMAIN_MESSAGES.identity.tooManyScimTokens(5))).toBeInTheDocument();
  });
});

describe('Settings > Identity: the provisioning log', { timeout: 20_000 }, () => {
  it('lists the last calls: time, request, status, outcome and token', async () => {
    const calls = scimCallListSchema.parse({
      items: [
        scimCallOf(),
        scimCallOf({
          id: '2',
          method: 'PATCH',
          path: '/scim/v2/Users/u1',
          status: 409,
          outcome: 'Refused: break-glass admin',
          token: null,
        }),
      ],
    });
    renderIdentity(admin, undefined, { [IDENTITY_PATHS.calls]: () => json(200, calls) });
    const table = await screen.findByRole('table', { name: c.listLabel });
    const [, created, refused] = within(table).getAllByRole('row');
    expect(created).toHaveTextContent(formatDateTime('2025-03-03T08:15:00.000Z'));
    expect(created).toHaveTextContent('POST /scim/v2/Users');
    expect(created).toHaveTextContent('201');
    expect(created).toHaveTextContent('Created dana@acme.example');
    expect(created).toHaveTextContent('Okta provisioning (scim_1a2b3c4d)');
    expect(refused).toHaveTextContent('PATCH /scim/v2/Users/u1');
    expect(refused).toHaveTextContent('409');
    expect(refused).toHaveTextContent(c.noToken);
    expect(screen.getByTestId('freshness')).toBeInTheDocument();
  });

  it('is a live figure: read again while the page is open', () => {
    expect(identityQueries.scimCalls('x')).toMatchObject({ refetchInterval: LIVE_REFRESH_MS, refetchIntervalInBackground: false });
  });
});
