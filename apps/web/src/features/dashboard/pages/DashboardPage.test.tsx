import { MESSAGES } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, makeSession, mockFetch, renderApp } from '@/test/helpers';

describe('dashboard', () => {
  it('shows a loading state, then the organization name from /api/users/me', async () => {
    const session = makeSession({ orgName: 'Name In Token' });
    let answer: (response: Response) => void = () => {};
    const fetchMock = mockFetch({
      'GET /api/users/me': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderApp('/dashboard', { session });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByRole('status')).toBeInTheDocument();

    const organization = { ...session.user.organization, name: 'Northwind Agency' };
    answer(json(200, { ...session.user, organization }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Northwind Agency' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('asks to select an organization when the profile has none', async () => {
    const session = makeSession();
    mockFetch({ 'GET /api/users/me': () => json(200, { ...session.user, organization: null }) });
    renderApp('/dashboard', { session });
    expect(
      await screen.findByText(MESSAGES.organizations.selectOrganization),
    ).toBeInTheDocument();
  });
});
