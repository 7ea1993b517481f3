import { useMutation } from '@tanstack/react-query';
import { ApiError, apiClient } from '../../../lib/api-client';
import { getSession, saveSession } from '../../../lib/session';

interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
}

/**
 * POST /api/utilisateurs/change-password. The answer is read as
 * `{ success, error }`: a 2xx carrying `success: false` is a failure too.
 */
async function changePassword(input: ChangePasswordInput): Promise<void> {
  const body = await apiClient.post<unknown>('/api/utilisateurs/change-password', input);
  if (typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false) {
    const error = (body as { error?: unknown }).error;
    throw new ApiError(200, typeof error === 'string' && error ? error : undefined, body);
  }
  // A password change revokes every older token, this session's too: the answer carries its replacement.
  const token = typeof body === 'object' && body !== null ? (body as { token?: unknown }).token : undefined;
  const session = getSession();
  if (typeof token === 'string' && token && session) saveSession({ ...session, token });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
