import {
  ERROR_CODES,
  MESSAGES as DOMAIN_MESSAGES,
  identityViewSchema,
  pendingDomainClaimListSchema,
  type PendingDomainClaim,
} from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, OWN_ORG_ID } from '@/test/helpers';
import {
  CLAIM_ID,
  CLAIMANT_ORG_ID,
  DOMAIN_ID,
  domainOf,
  IDENTITY_PATHS,
  identityViewOf,
  pendingClaimOf,
  renderIdentity,
} from '@/test/identity-data';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const c = MESSAGES.identityPages.pendingClaims;
const houseAdmin = { role: 'house_admin', orgType: 'house', orgName: 'House' } as const;
const tenantAdmin = { role: 'tenant_admin', orgType: 'tenant', orgName: 'Acme Corporation' } as const;
const OTHER_CLAIM_ID = '00000000-0000-4000-8000-0000000000d3';
const APPROVE = IDENTITY_PATHS.approveIn(CLAIMANT_ORG_ID, CLAIM_ID);

beforeAll(() => Promise.all([import('./identity-page'), import('@/app/shell/app-shell')]), 30_000);

/** The house's own identity: no provider, nothing claimed. */
const houseView = () => identityViewSchema.parse(identityViewOf({ jit_roles: ['house_user'] }));

/** The review list as the server answers it: each fixture passes the contract's schema. */
const listOf = (...items: PendingDomainClaim[]) => json(200, pendingDomainClaimListSchema.parse({ items }));

const approveButton = (scope: HTMLElement = document.body) =>
  within(scope).findByRole('button', { name: c.approveAria('globex.example', 'Globex Tenant') });

async function confirmApproval(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await approveButton());
  const dialog = await screen.findByRole('alertdialog', { name: c.approveTitle('globex.example', 'Globex Tenant') });
  return { dialog, confirm: () => user.click(within(dialog).getByRole('button', { name: c.approve })) };
}

describe('Settings > Identity: domain claims awaiting approval', { timeout: 20_000 }, () => {
  it("lists the tree's pending claims for a house admin, the organization leading to its page", async () => {
    renderIdentity(houseAdmin, houseView, { [IDENTITY_PATHS.pendingClaims]: () => listOf(pendingClaimOf()) });
    const table = await screen.findByRole('table', { name: c.listLabel });
    const row = within(table).getByRole('row', { name: /globex\.example/ });
    expect(within(row).getByRole('link', { name: 'Globex Tenant' })).toHaveAttribute('href', `/organizations/${CLAIMANT_ORG_ID}`);
    expect(row).toHaveTextContent('gina@globex.example');
    expect(row).toHaveTextContent(formatDateTime('2025-03-02T11:30:00.000Z'));
    expect(within(row).getByRole('button', { name: c.approveAria('globex.example', 'Globex Tenant') })).toHaveTextContent(c.approve);
  });

  it('shows the card to no one but house admins, and asks nothing for it', async () => {
    const api = renderIdentity(tenantAdmin);
    expect(await screen.findByText(MESSAGES.identityPages.domains.none)).toBeInTheDocument();
    expect(screen.queryByText(c.title)).not.toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.pendingClaims)).toHaveLength(0);
  });

  it('says when no claims are waiting', async () => {
    renderIdentity(houseAdmin, houseView);
    expect(await screen.findByText(c.title)).toBeInTheDocument();
    expect(await screen.findByText(c.none)).toBeInTheDocument();
  });

  it('approves by hand after a confirmation and a step-up, then reads the list again', async () => {
    let items = [
      pendingClaimOf(),
      pendingClaimOf({ id: OTHER_CLAIM_ID, domain: 'initech.example', organization_name: 'Initech', claimed_by: null }),
    ];
    let steppedUp = false;
    const api = renderIdentity(houseAdmin, houseView, {
      [IDENTITY_PATHS.pendingClaims]: () => listOf(...items),
      [APPROVE]: () => {
        if (!steppedUp) return apiError(401, ERROR_CODES.stepUpRequired, DOMAIN_MESSAGES.auth.stepUpRequired);
        items = items.filter((claim) => claim.id !== CLAIM_ID);
        return json(200, { ok: true });
      },
      'GET /api/auth/step-up': () => json(200, { methods: ['password'], fresh_until: null }),
      'POST /api/auth/step-up': () => {
        steppedUp = true;
        return json(200, { fresh_until: 1_900_000_000 });
      },
    });
    const user = userEvent.setup();
    const { dialog, confirm } = await confirmApproval(user);
    // The confirmation says what is skipped and whose name the approval is recorded in.
    expect(dialog).toHaveTextContent(c.approveBody);
    expect(c.approveBody).toMatch(/DNS proof/);
    expect(c.approveBody).toMatch(/in your name/);
    await confirm();

    const stepUp = await screen.findByRole('dialog', { name: MESSAGES.stepUp.title });
    await user.type(within(stepUp).getByLabelText(MESSAGES.stepUp.passwordLabel), 'the password');
    await user.click(within(stepUp).getByRole('button', { name: MESSAGES.stepUp.submit }));

    expect(await screen.findByText(c.approved('globex.example'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('row', { name: /globex\.example/ })).not.toBeInTheDocument());
    expect(screen.getByRole('row', { name: /initech\.example/ })).toBeInTheDocument();
    expect(api.callsTo(APPROVE)).toHaveLength(2);
    expect(api.callsTo(IDENTITY_PATHS.pendingClaims)).toHaveLength(2);
  });

  it('shows a taken claim as such, with no way to approve it', async () => {
    renderIdentity(houseAdmin, houseView, { [IDENTITY_PATHS.pendingClaims]: () => listOf(pendingClaimOf({ taken: true })) });
    const row = await screen.findByRole('row', { name: /globex\.example/ });
    expect(row).toHaveTextContent(c.taken);
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows the server's refusal of an approval, and the claim as the list now has it", async () => {
    let taken = false;
    renderIdentity(houseAdmin, houseView, {
      [IDENTITY_PATHS.pendingClaims]: () => listOf(pendingClaimOf({ taken })),
      [APPROVE]: () => {
        taken = true;
        return apiError(409, 'conflict', DOMAIN_MESSAGES.identity.domainTaken);
      },
    });
    const user = userEvent.setup();
    await (await confirmApproval(user)).confirm();
    const alert = (await screen.findByText(c.approveFailed('globex.example'))).closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent(DOMAIN_MESSAGES.identity.domainTaken);
    const row = await screen.findByRole('row', { name: /globex\.example/ });
    await waitFor(() => expect(row).toHaveTextContent(c.taken));
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says when the list could not be loaded, with the reason', async () => {
    // A refusal (the person's role changed meanwhile) is not asked again, so it shows at once.
    renderIdentity(houseAdmin, houseView, {
      [IDENTITY_PATHS.pendingClaims]: () => apiError(403, 'forbidden', DOMAIN_MESSAGES.identity.onlyHouseApproves),
    });
    const alert = (await screen.findByText(DOMAIN_MESSAGES.identity.onlyHouseApproves)).closest('[role="alert"]') as HTMLElement;
    expect(alert).toHaveTextContent(MESSAGES.auth.accessDenied);
    expect(screen.queryByText(c.none)).not.toBeInTheDocument();
  });

  it('lists the claims of a frozen house without a way to approve them', async () => {
    renderIdentity(houseAdmin, houseView, { [IDENTITY_PATHS.pendingClaims]: () => listOf(pendingClaimOf()) }, { status: 'suspended' });
    const row = await screen.findByRole('row', { name: /globex\.example/ });
    expect(within(row).getByRole('link', { name: 'Globex Tenant' })).toBeInTheDocument();
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe("Settings > Identity: the house's own claims and the review list", { timeout: 20_000 }, () => {
  it("reads the review list again when the house's own claim is approved from its domains", async () => {
    const own = pendingClaimOf({ id: DOMAIN_ID, domain: 'acme.example', organization_id: OWN_ORG_ID, organization_name: 'House' });
    let view = identityViewOf({ jit_roles: ['house_user'], domains: [domainOf()] });
    let items = [own];
    const api = renderIdentity(houseAdmin, () => identityViewSchema.parse(view), {
      [IDENTITY_PATHS.pendingClaims]: () => listOf(...items),
      [IDENTITY_PATHS.approve(DOMAIN_ID)]: () => {
        view = { ...view, domains: [domainOf({ state: 'approved', approved_at: '2025-03-04T10:00:00.000Z', approved_by: 'Hank House' })] };
        items = [];
        return json(200, { ok: true });
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('row', { name: /acme\.example/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `${MESSAGES.identityPages.domains.approve} acme.example` }));
    const dialog = await screen.findByRole('alertdialog', { name: MESSAGES.identityPages.domains.approveTitle('acme.example') });
    await user.click(within(dialog).getByRole('button', { name: MESSAGES.identityPages.domains.approve }));
    expect(await screen.findByText(c.none)).toBeInTheDocument();
    expect(api.callsTo(IDENTITY_PATHS.pendingClaims)).toHaveLength(2);
  });
});

describe('Settings > Identity: domain claims awaiting approval on a narrow screen', { timeout: 20_000 }, () => {
  it('lists each claim as a card with its approval', async () => {
    const width = window.innerWidth;
    window.innerWidth = 390;
    try {
      renderIdentity(houseAdmin, houseView, { [IDENTITY_PATHS.pendingClaims]: () => listOf(pendingClaimOf()) });
      const list = await screen.findByRole('list', { name: c.listLabel });
      const item = within(list).getByRole('listitem');
      expect(within(item).getByRole('link', { name: 'Globex Tenant' })).toHaveAttribute('href', `/organizations/${CLAIMANT_ORG_ID}`);
      expect(item).toHaveTextContent('gina@globex.example');
      expect(await approveButton(item)).toBeInTheDocument();
    } finally {
      window.innerWidth = width;
    }
  });
});
