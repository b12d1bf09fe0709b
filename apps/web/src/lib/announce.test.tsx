import { useMutation } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/helpers';
import { announce } from './announce';

/** A row whose action removes the row before the server answers, as a revoked invitation's refetch does. */
function Row({ work, onGone }: { work: () => Promise<unknown>; onGone(): void }) {
  const mutation = useMutation({ mutationFn: work });
  return (
    <button
      type="button"
      onClick={() => {
        announce(mutation.mutateAsync(), 'Done', 'Failed');
        onGone();
      }}
    >
      Act
    </button>
  );
}

function List({ work }: { work: () => Promise<unknown> }) {
  const [shown, setShown] = useState(true);
  return shown ? <Row work={work} onGone={() => setShown(false)} /> : <p>Row gone</p>;
}

function deferred() {
  let settle!: { resolve(): void; reject(error: Error): void };
  const promise = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  return { promise, ...settle };
}

describe('announce', () => {
  it('toasts the success after the row that started the action is gone', async () => {
    const answer = deferred();
    renderWithProviders(<List work={() => answer.promise} />);
    await userEvent.click(screen.getByRole('button', { name: 'Act' }));
    await screen.findByText('Row gone');
    answer.resolve();
    expect(await screen.findByText('Done')).toBeInTheDocument();
  });

  it('toasts the failure with the server message after the row is gone', async () => {
    const answer = deferred();
    renderWithProviders(<List work={() => answer.promise} />);
    await userEvent.click(screen.getByRole('button', { name: 'Act' }));
    await screen.findByText('Row gone');
    answer.reject(new Error('Invitation already accepted'));
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(screen.getByText('Invitation already accepted')).toBeInTheDocument();
  });
});
