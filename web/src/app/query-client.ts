import { QueryClient } from '@tanstack/react-query';
import { ApiError, NetworkError, SessionExpiredError } from '../lib/api-client';

const MAX_RETRIES = 2;

/** Retrying helps only when the server might answer differently next time (5xx). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof SessionExpiredError || error instanceof NetworkError) return false;
  // Anything else (an answer that is not what the screen asked for, e.g. /tickets/clos read as a
  // ticket) comes back the same: the screen says so at once instead of after the retries.
  return error instanceof ApiError && error.status >= 500 && failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Live updates invalidate what changed; until then an answer is fresh
        // enough to show without a refetch on every mount.
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        retry: shouldRetry,
        refetchOnWindowFocus: true,
      },
      mutations: {
        // Commands are not blindly repeated: the user decides.
        retry: false,
        // Sent even when the browser says it is offline: react-query would
        // otherwise hold the command behind a spinner, with no message, until
        // the network returns (or the tab is closed and the work lost). The
        // fetch fails at once and the screen shows the spec's network message
        // with the form as it was (docs/architecture.md, "The web client's session").
        networkMode: 'always',
      },
    },
  });
}
