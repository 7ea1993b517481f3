import { createContext, useContext } from 'react';
import type { LiveStatus } from '../lib/live-updates';

/** The live-update connection's state, as the screens need it for the "off" indicator. */
export type LiveConnectionState = LiveStatus | 'off';

export const LiveStatusContext = createContext<LiveConnectionState>('off');

function useLiveStatus(): LiveConnectionState {
  return useContext(LiveStatusContext);
}

/**
 * A small, calm notice while the board cannot update itself: after a drop
 * (reconnecting with backoff) or once the server refused the socket. Nothing
 * while connecting the first time or when live updates are not used at all.
 */
export function LiveUpdatesIndicator() {
  const status = useLiveStatus();
  if (status !== 'reconnecting' && status !== 'stopped') return null;
  return (
    <p className="live-indicator" role="status">
      <span className="live-indicator__dot" aria-hidden="true" />
      {status === 'reconnecting'
        ? 'Mises à jour en direct interrompues — reconnexion…'
        : 'Mises à jour en direct désactivées — rechargez la page pour les réactiver.'}
    </p>
  );
}
