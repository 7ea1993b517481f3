/**
 * Test helpers for component tests: render the real route tree in a memory
 * router, sign a user in through localStorage, and fake `fetch`.
 *
 * Importing this module registers the cleanup that vitest would otherwise need
 * `globals: true` for (Testing Library only auto-cleans with global hooks).
 */
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { appRoutes } from '../app/routes';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

export function renderApp(path: string) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const queryClient = createTestQueryClient();
  const user = userEvent.setup();
  const utils = render(
    <AppProviders queryClient={queryClient} liveUpdates={false}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, queryClient, user, pathname: () => router.state.location.pathname };
}

export * from './fetch-mock';
export * from './users';
