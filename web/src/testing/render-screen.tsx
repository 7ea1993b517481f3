/**
 * Renders one screen on its own (no route guard), for rules the guards would
 * otherwise hide: a screen's read-only mode or its 'Accès refusé.'. Sign a
 * user in first; fake `fetch` with mockApi.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { createTestQueryClient } from './render-app';

export function renderScreen(element: ReactNode, path = '/') {
  const router = createMemoryRouter(
    [
      { path: '*', element },
      { path: '/tickets/:ticketId', element: <p>Détail du ticket</p> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = createTestQueryClient();
  const user = userEvent.setup();
  const utils = render(
    <AppProviders queryClient={queryClient} liveUpdates={false}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, queryClient, user, pathname: () => router.state.location.pathname };
}
