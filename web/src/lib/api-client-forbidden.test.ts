import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, SessionExpiredError, apiClient } from './api-client';
import { getSession } from './session';
import { jsonResponse, mockFetch } from '../testing/fetch-mock';
import { signIn } from '../testing/users';

afterEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

describe('apiRequest with forbiddenIsError (agency saves, management §6)', () => {
  it('turns a 403 into an ApiError with the server text and keeps the session', async () => {
    signIn();
    mockFetch(() => jsonResponse(403, { error: 'Accès refusé: …' }));
    const error = await apiClient.put('/api/agences/x', {}, { forbiddenIsError: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).serverMessage).toBe('Accès refusé: …');
    expect(getSession()).not.toBeNull();
  });

  it('still ends the session on a 401', async () => {
    signIn();
    mockFetch(() => jsonResponse(401, { error: 'Token invalide' }));
    await expect(apiClient.put('/api/agences/x', {}, { forbiddenIsError: true })).rejects.toBeInstanceOf(SessionExpiredError);
    expect(getSession()).toBeNull();
  });

  it('leaves every other call ending the session on a 403', async () => {
    signIn();
    mockFetch(() => jsonResponse(403, { error: 'Accès refusé.' }));
    await expect(apiClient.get('/api/clients')).rejects.toBeInstanceOf(SessionExpiredError);
    expect(getSession()).toBeNull();
  });
});
