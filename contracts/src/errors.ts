/**
 * Business rejections. Each carries a stable code and a French message that the
 * API returns as `{ error }`; the HTTP status is decided by the API's single
 * error handler from the class, never by the thrower.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Input that breaks a rule (400). */
export class ValidationError extends DomainError {
  readonly code = 'VALIDATION';
}

/** The command is not allowed in the aggregate's current state (409). */
export class IllegalStateError extends DomainError {
  readonly code = 'ILLEGAL_STATE';
}

/** Somebody else changed the same thing first (409). */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT';
}

/** Unknown id, or an id outside the caller's scope (404). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
}

/** Authenticated, but not allowed (403). */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
}

/** Not authenticated, or the token is no longer valid (401). */
export class UnauthorizedError extends DomainError {
  readonly code = 'UNAUTHORIZED';
}

/**
 * The answer asked for holds more rows than one answer may carry (422): the
 * request is well-formed, the same request narrowed (filters, dates) or paged
 * is served. Not 413, which names the request's own content (uploads).
 */
export class AnswerTooLargeError extends DomainError {
  readonly code = 'ANSWER_TOO_LARGE';
}

/** Too many attempts (429). */
export class TooManyRequestsError extends DomainError {
  readonly code = 'TOO_MANY_REQUESTS';
}

/** A dependency (database, event store) is down (503). */
export class UnavailableError extends DomainError {
  readonly code = 'UNAVAILABLE';
}
