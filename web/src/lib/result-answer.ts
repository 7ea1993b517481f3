import { ApiError } from './api-client';

/**
 * Several management writes answer `{ success, error }` (management §7): a 2xx
 * carrying `success: false` is a failure too, with the server's `error`.
 */
export function assertSuccess(answer: unknown): void {
  if (typeof answer === 'object' && answer !== null && (answer as { success?: unknown }).success === false) {
    const error = (answer as { error?: unknown }).error;
    throw new ApiError(200, typeof error === 'string' && error ? error : undefined, answer);
  }
}
