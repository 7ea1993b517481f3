import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../lib/api-client';
import { createQueryClient, shouldRetry } from './query-client';

afterEach(() => onlineManager.setOnline(true));

describe('query client', () => {
  it('sends a command even when the browser says it is offline, so the screen can say so instead of spinning', async () => {
    onlineManager.setOnline(false);
    const client = createQueryClient();
    let attempts = 0;
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => {
        attempts += 1;
        return Promise.reject(new NetworkError(new TypeError('Failed to fetch')));
      },
    });

    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(NetworkError);
    expect(attempts).toBe(1);
    expect(mutation.state.status).toBe('error');
    expect(mutation.state.isPaused).toBe(false);
  });

  it('retries a read only when the server might answer differently (5xx), never a refusal or an answer of the wrong shape', () => {
    expect(shouldRetry(0, new ApiError(503, 'indisponible', null))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 'indisponible', null))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'introuvable', null))).toBe(false);
    expect(shouldRetry(0, new Error('not a ticket'))).toBe(false);
  });
});
