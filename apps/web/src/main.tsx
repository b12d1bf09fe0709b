import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers';
import { AppRoutes } from '@/app/routes';
import { createQueryClient } from '@/lib/query-client';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
// A data router around the console's own routes (one catch-all route), so that a form with
// unsaved edits can hold the browser's own Back and Forward (useBlocker needs one).
const router = createBrowserRouter([
  {
    path: '*',
    element: (
      <AppProviders queryClient={queryClient}>
        <AppRoutes />
      </AppProviders>
    ),
  },
]);

createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
