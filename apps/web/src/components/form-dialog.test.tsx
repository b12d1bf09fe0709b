import { describe, expect, it, vi } from 'vitest';
import { saveThenClose } from './form-dialog';

describe('saveThenClose', () => {
  it('closes the dialog once the save has finished', async () => {
    const steps: string[] = [];
    await saveThenClose(
      async () => {
        await Promise.resolve();
        steps.push('saved');
      },
      () => steps.push('closed'),
    );
    expect(steps).toEqual(['saved', 'closed']);
  });

  it('leaves the dialog open on a refusal and throws no further', async () => {
    const close = vi.fn();
    await expect(saveThenClose(() => Promise.reject(new Error('refused')), close)).resolves.toBeUndefined();
    expect(close).not.toHaveBeenCalled();
  });
});
