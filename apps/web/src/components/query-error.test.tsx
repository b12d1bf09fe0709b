import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api';
import { QueryError } from './query-error';
import { MESSAGES } from '@/lib/wording';

const failure = (status: number, message = 'The reason') => new ApiError({ status, code: 'x', message });

describe('query error', () => {
  it('shows the title and the reason, and loads again with Retry', async () => {
    const onRetry = vi.fn();
    render(<QueryError error={failure(503)} title="Failed to load" onRetry={onRetry} />);
    expect(screen.getByText('Failed to load')).toBeInTheDocument();
    expect(screen.getByText('The reason')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows Access Denied with the reason on 403, and no Retry for a refusal', () => {
    render(<QueryError error={failure(403)} title="Failed to load" onRetry={() => {}} />);
    expect(screen.getByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(screen.getByText('The reason')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('names a missing record with the given title on 404, or shows the page title and the reason', () => {
    const { unmount } = render(<QueryError error={failure(404)} title="Failed to load" notFound="Organization not found" />);
    expect(screen.getByText('Organization not found')).toBeInTheDocument();
    expect(screen.queryByText('The reason')).not.toBeInTheDocument();
    unmount();
    render(<QueryError error={failure(404)} title="Failed to load" />);
    expect(screen.getByText('Failed to load')).toBeInTheDocument();
    expect(screen.getByText('The reason')).toBeInTheDocument();
  });

  it('puts the reason in the title when the title is a function', () => {
    render(<QueryError error={new Error('Database unavailable')} title={(message) => `Error loading: ${message}`} />);
    expect(screen.getByText('Error loading: Database unavailable')).toBeInTheDocument();
  });
});
