import { toast } from 'sonner';

/**
 * Toasts how a mutation ended. Callbacks given to `mutate()` itself are dropped once the component
 * that called it unmounts, and a row's action often removes its own row (a revoked invitation, a
 * deactivated person under a status filter) when the list refetches after success, so the toast
 * would be lost at random. The promise of `mutateAsync()` settles whatever was unmounted.
 */
export function announce(outcome: Promise<unknown>, success: string, failure: string): void {
  outcome.then(
    () => toast.success(success),
    (error: unknown) => toast.error(failure, { description: error instanceof Error ? error.message : undefined }),
  );
}
