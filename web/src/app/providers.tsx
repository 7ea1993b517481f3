import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { ToastProvider } from '../components/ui/toast';
import { useLiveUpdates, type StreamInvalidators } from '../lib/live-updates';
import { getSession, subscribeSession, useSession } from '../lib/session';
import { LiveStatusContext } from './live-status';
import { onDemandModule, useOnDemandModule } from './on-demand';
import { ReadModelsLateNotice } from './read-models-late-notice';
import { createQueryClient } from './query-client';

/**
 * Whenever the signed-in token changes (logout, session expiry, login, another
 * tab), answers cached for the previous user must not be shown to the next.
 */
function SessionCacheReset() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let token = getSession()?.token ?? null;
    return subscribeSession(() => {
      const next = getSession()?.token ?? null;
      if (next === token) return;
      token = next;
      queryClient.clear();
    });
  }, [queryClient]);
  return null;
}

/*
 * What a live message refreshes is built from every feature's query keys: loaded once signed in,
 * not on /login or the public QR form (issue 32, item 7). The socket opens when it has arrived.
 */
const liveWiring = onDemandModule(() => import('./live-invalidators'));
const NO_INVALIDATORS: StreamInvalidators = {};

function LiveUpdates({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const wiring = useOnDemandModule(liveWiring, enabled && session !== null);
  const onStreams = useMemo(() => wiring?.livePageRefresher(queryClient), [wiring, queryClient]);
  const status = useLiveUpdates(session?.token ?? null, wiring?.liveInvalidators ?? NO_INVALIDATORS, { enabled: enabled && wiring !== undefined, ...(onStreams ? { onStreams } : {}) });
  return <LiveStatusContext.Provider value={status}>{children}</LiveStatusContext.Provider>;
}

export interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client. */
  queryClient?: QueryClient;
  /** Tests turn the WebSocket off. */
  liveUpdates?: boolean;
}

export function AppProviders({ children, queryClient, liveUpdates = true }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <SessionCacheReset />
      <LiveUpdates enabled={liveUpdates}>
        <ToastProvider>
          <ReadModelsLateNotice />
          {children}
        </ToastProvider>
      </LiveUpdates>
    </QueryClientProvider>
  );
}
