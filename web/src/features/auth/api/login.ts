import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { parseSessionUser, type Session } from '../../../lib/session';

interface LoginInput {
  email: string;
  motdepasse: string;
}

/** The server answered 2xx but not with `{ token, user }`. */
class InvalidLoginResponseError extends Error {
  constructor() {
    super('Réponse invalide du serveur');
    this.name = 'InvalidLoginResponseError';
  }
}

/** POST /api/login → the session to store. Anonymous: no token is sent. */
async function login(input: LoginInput): Promise<Session> {
  const body = await apiRequest<unknown>('/api/login', { method: 'POST', json: input, auth: false });
  if (typeof body !== 'object' || body === null) throw new InvalidLoginResponseError();
  const { token, user } = body as { token?: unknown; user?: unknown };
  const parsedUser = parseSessionUser(user);
  if (typeof token !== 'string' || !token || !parsedUser) throw new InvalidLoginResponseError();
  return { token, user: parsedUser };
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
