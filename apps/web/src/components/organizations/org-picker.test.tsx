import { TIMING } from '@console/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, renderWithProviders } from '@/test/helpers';
import { makeList, makeOrganization } from '@/test/organization-data';
import { OrgPicker } from './org-picker';

describe('organization picker', () => {
  it('offers to load the organizations again when their list failed, and lists them once it loads', async () => {
    let fail = true;
    const api = mockApi((call) =>
      call.path === '/api/organizations'
        ? fail
          ? apiError(503, 'unavailable', 'Service unavailable')
          : json(200, makeList([makeOrganization({ name: 'Picked Agency' })]))
        : undefined,
    );
    renderWithProviders(<OrgPicker id="picker" value={null} onChange={() => {}} label="Organization" />);
    // The application's client asks three more times, 2 s apart, before the failure shows.
    const retry = await screen.findByRole('button', { name: 'Retry loading organizations' }, { timeout: 10_000 });
    fail = false;
    await userEvent.setup().click(retry);
    expect(await screen.findByRole('option', { name: 'Picked Agency' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry loading organizations' })).not.toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations').length).toBeGreaterThan(1);
  }, 20_000);

  it('offers nothing to retry when the server refused the list', async () => {
    const api = mockApi((call) => (call.path === '/api/organizations' ? apiError(403, 'forbidden', 'No') : undefined));
    renderWithProviders(<OrgPicker id="picker" value={null} onChange={() => {}} label="Organization" />);
    await expect.poll(() => api.queriesOf('GET /api/organizations').length).toBe(1);
    // Past the delay a retry would have waited: still the one request, and no Retry.
    await new Promise((resolve) => setTimeout(resolve, TIMING.loadRetryDelayMs + 500));
    expect(api.queriesOf('GET /api/organizations')).toHaveLength(1);
    expect(screen.getByRole('option', { name: 'Your organization' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry loading organizations' })).not.toBeInTheDocument();
  }, 20_000);
});
