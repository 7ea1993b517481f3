import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { clearSession, getToken } from '../../lib/session';
import { logoutOnServer } from './api/logout';

/**
 * Déconnexion: forget token and user, drop every cached answer, go to /login,
 * and have the server revoke the token. Forgetting comes first: the live
 * socket closes as a logout here, not as a session the server ended; and the
 * user is out at once even when the server does not answer.
 */
export function useLogout(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    const token = getToken();
    clearSession();
    queryClient.clear();
    void navigate('/login', { replace: true });
    if (token) {
      logoutOnServer(token).catch((error: unknown) => {
        // Offline or server down: the token lives on until it expires; nothing more to do from here.
        console.warn('Déconnexion côté serveur impossible', error);
      });
    }
  }, [queryClient, navigate]);
}
