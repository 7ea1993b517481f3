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
import { afterEach, beforeAll, vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { preloadOnDemand } from '../app/on-demand';
import { appRoutes } from '../app/routes';

// The screens are split into chunks (app/on-demand.tsx): loaded up front, they render synchronously as before.
beforeAll(() => preloadOnDemand());

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

/**
 * A test that did not fake `fetch` still renders screens that load data; they
 * get empty lists (GET) or a 404 (anything else) instead of a real request to
 * nowhere, which would read as a network failure.
 */
function stubUnmockedFetch() {
  if (vi.isMockFunction(globalThis.fetch)) return;
  vi.stubGlobal(
    'fetch',
    vi.fn((_input: RequestInfo | URL, init?: RequestInit) =>
      Promise.resolve(
        (init?.method ?? 'GET') === 'GET'
          ? new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } })
          : new Response('{"error":"non simulé"}', { status: 404, headers: { 'Content-Type': 'application/json' } }),
      ),
    ),
  );
}

/** `liveUpdates`: open the live socket (the test stubs WebSocket); off by default. */
export function renderApp(path: string, options: { user?: Parameters<typeof userEvent.setup>[0]; liveUpdates?: boolean } = {}) {
  stubUnmockedFetch();
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const queryClient = createTestQueryClient();
  const user = userEvent.setup(options.user);
  const utils = render(
    <AppProviders queryClient={queryClient} liveUpdates={options.liveUpdates ?? false}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, queryClient, user, pathname: () => router.state.location.pathname };
}

export * from './fetch-mock';
export * from './users';
export * from './api-routes';
export * from './tickets';
