import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSession, renderApp } from '@/test/helpers';
import { MESSAGES } from '@/lib/wording';

describe('frozen organization banner', () => {
  it('says on every page why changes are refused when the own organization is suspended or inactive', async () => {
    for (const status of ['suspended', 'inactive'] as const) {
      const session = makeSession({ role: 'agency_admin', orgType: 'agency' });
      session.user.organization.status = status;
      const { unmount } = renderApp('/settings', { session });
      expect(await screen.findByText(MESSAGES.organizations.frozen(status, 'own'))).toBeInTheDocument();
      unmount();
    }
  });

  it('says so too below a suspended organization, from the standing the profile carries', async () => {
    const session = makeSession({ role: 'tenant_admin', orgType: 'tenant' });
    session.user.organization.ancestor_status = 'suspended';
    renderApp('/settings', { session });
    expect(await screen.findByText(MESSAGES.organizations.frozen('suspended', 'ancestor'))).toBeInTheDocument();
  });

  it('is not shown while the organization is active', async () => {
    renderApp('/settings', { session: makeSession() });
    expect(await screen.findByRole('heading', { name: MESSAGES.billingPages.settingsTitle })).toBeInTheDocument();
    expect(screen.queryByText(/nothing can be changed/)).not.toBeInTheDocument();
  });
});
