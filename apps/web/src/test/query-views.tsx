import { QueryClientProvider, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createQueryClient } from '@/lib/query-client';

/**
 * What an invalidation test needs of the views it watches (query keys by name): a client with
 * each view cached, a wrapper that provides it to a hook, and the names of the views a change
 * marked for asking again.
 */
export function watchViews<V extends Record<string, QueryKey>>(views: V) {
  type View = keyof V & string;
  return {
    seeded(): QueryClient {
      const client = createQueryClient();
      for (const key of Object.values(views)) client.setQueryData(key, {});
      return client;
    },
    wrapper(client: QueryClient) {
      return function Wrapper({ children }: { children: ReactNode }) {
        return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
      };
    },
    invalidated(client: QueryClient): View[] {
      return (Object.keys(views) as View[]).filter((view) => client.getQueryState(views[view]!)?.isInvalidated);
    },
  };
}
